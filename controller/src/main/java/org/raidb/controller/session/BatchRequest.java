package org.raidb.controller.session;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.recovery.LoggedStatement;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.result.BackendValues;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.SqlStates;

/** A BATCH frame: Statement.addBatch texts, or one prepared statement with rows of parameters. */
final class BatchRequest {
  private final List<String> statements; // form 0
  private final String sql; // form 1
  private final List<List<Object>> rows;
  private final int timeoutSeconds;

  private BatchRequest(List<String> statements, String sql, List<List<Object>> rows, int timeoutSeconds) {
    this.statements = statements;
    this.sql = sql;
    this.rows = rows;
    this.timeoutSeconds = timeoutSeconds;
  }

  static BatchRequest read(PayloadReader f) throws ProtocolException {
    byte form = f.readByte();
    int timeout = f.readInt();
    if (form == 0) {
      List<String> list = f.readStringList();
      return new BatchRequest(list == null ? List.of() : list, null, null, timeout);
    }
    if (form != 1) {
      throw new ProtocolException("unknown batch form " + form);
    }
    String sql = f.readString();
    int n = f.readCount(4);
    List<List<Object>> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int params = f.readCount(1);
      List<Object> row = new ArrayList<>(params);
      for (int p = 0; p < params; p++) {
        row.add(f.readValue());
      }
      rows.add(row);
    }
    return new BatchRequest(null, sql, rows, timeout);
  }

  /** The batch with every text that may call now(), random() and the like made deterministic. */
  BatchRequest deterministic(SqlAnalyzer analyzer, TextRewriter rewriter) throws SQLException {
    if (sql != null) {
      return analyzer.analyze(sql).nonDeterministic() ? new BatchRequest(null, rewriter.rewrite(sql), rows, timeoutSeconds) : this;
    }
    List<String> out = new ArrayList<>(statements.size());
    for (String t : statements) {
      out.add(analyzer.analyze(t).nonDeterministic() ? rewriter.rewrite(t) : t);
    }
    return new BatchRequest(out, null, null, timeoutSeconds);
  }

  /** Rewrites one statement text. */
  @FunctionalInterface
  interface TextRewriter {
    String rewrite(String sql) throws SQLException;
  }

  /** A batch is a write whose tables are the union of its statements' tables. */
  AnalyzedStatement analyze(SqlAnalyzer analyzer) throws SQLException {
    List<String> texts = sql != null ? List.of(sql) : statements;
    Set<String> read = new LinkedHashSet<>();
    Set<String> written = new LinkedHashSet<>();
    boolean everything = false;
    List<SchemaChange> changes = new ArrayList<>();
    for (String t : texts) {
      AnalyzedStatement a = analyzer.analyze(t);
      if (a.kind() == StatementKind.TRANSACTION_CONTROL) {
        throw new SQLException("transaction control statements cannot be batched: use commit() and rollback()",
            SqlStates.FEATURE_NOT_SUPPORTED);
      }
      if (a.refusal() != null) {
        throw new SQLException(a.refusal(), SqlStates.FEATURE_NOT_SUPPORTED);
      }
      read.addAll(a.tablesRead());
      written.addAll(a.tablesWritten());
      everything |= a.touchesEverything();
      if (a.schemaChange() != null) {
        changes.add(a.schemaChange());
        // Where a new table goes is decided per statement; a batch runs as one unit on each of its
        // backends, so a batch creating tables goes to every backend.
        everything |= a.createdTable() != null;
      }
    }
    return new AnalyzedStatement(StatementKind.WRITE, Set.copyOf(read), Set.copyOf(written), everything, null, null,
        false, null, changes.size() == 1 ? changes.get(0) : null);
  }

  /** The batch's statements as the recovery log keeps them: one per text, or one per row of parameters. */
  List<LoggedStatement> loggedStatements() {
    List<LoggedStatement> out = new ArrayList<>();
    if (sql != null) {
      for (List<Object> row : rows) {
        out.add(new LoggedStatement(sql, row));
      }
    } else {
      for (String t : statements) {
        out.add(new LoggedStatement(t, null));
      }
    }
    return out;
  }

  String describe() {
    return sql != null ? sql + " (batch of " + rows.size() + ")" : "batch of " + statements.size() + " statements";
  }

  StatementResult run(Connection c) throws SQLException {
    long[] counts;
    if (sql != null) {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        applyTimeout(ps);
        for (List<Object> row : rows) {
          for (int i = 0; i < row.size(); i++) {
            BackendValues.bind(ps, i + 1, row.get(i));
          }
          ps.addBatch();
        }
        counts = ps.executeLargeBatch();
      }
    } else {
      try (Statement st = c.createStatement()) {
        applyTimeout(st);
        for (String s : statements) {
          st.addBatch(s);
        }
        counts = st.executeLargeBatch();
      }
    }
    List<Object> out = new ArrayList<>(counts.length);
    for (long n : counts) {
      out.add(n);
    }
    return new StatementResult(out, null);
  }

  private void applyTimeout(Statement st) throws SQLException {
    if (timeoutSeconds > 0) {
      st.setQueryTimeout(timeoutSeconds);
    }
  }

}
