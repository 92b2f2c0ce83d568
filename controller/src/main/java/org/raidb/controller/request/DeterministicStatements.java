package org.raidb.controller.request;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.defaults.TableColumns;
import org.raidb.controller.defaults.VolatileCatalog;
import org.raidb.controller.defaults.VolatileDefaults;
import org.raidb.controller.determinism.DeterministicBatch;
import org.raidb.controller.determinism.DeterministicRewriter;
import org.raidb.controller.determinism.SqlTokens;
import org.raidb.controller.determinism.StatementClock;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.driver.protocol.SqlStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every backend must receive for a write to have the same effect on each (DESIGN, "Rules that
 * keep replicas identical"): the volatile column defaults it relies on written in ({@link
 * VolatileDefaults}), then now(), random() and the like replaced by literals computed once ({@link
 * DeterministicRewriter}); an {@code ALTER TABLE … ADD COLUMN … DEFAULT now()} turned into statements
 * that give the rows already there one value. DDL that succeeded is followed into the catalogue the
 * rewriting relies on. See docs/determinism.md.
 */
final class DeterministicStatements {
    private static final Logger log = LoggerFactory.getLogger(DeterministicStatements.class);

    private static final String[] DDL_WORDS = {"CREATE", "ALTER", "DROP", "RENAME", "COMMENT", "GRANT", "REVOKE"};

    private final BackendArray vdb;

    DeterministicStatements(BackendArray vdb) {
        this.vdb = vdb;
    }

    /**
     * The statements to run, in order, for one EXECUTE: the request itself, rewritten, or for an ALTER
     * TABLE on MariaDB two statements. Reads and session settings are returned as they are.
     */
    List<ExecuteRequest> of(SessionState s, AnalyzedStatement a, ExecuteRequest r) throws SQLException {
        if (a.rewriteSpans() != null) {
            String text = severalStatements(s, a, r.sql());
            return List.of(unchanged(text, r.sql()) ? r : r.withSql(text));
        }
        if (isDdl(a, r.sql())) {
            Transaction tx = s.transaction();
            List<String> texts = defaults().addColumns(r.sql(), vdb.dialect(), clock(tx));
            if (texts.size() == 1 && texts.get(0).equals(r.sql())) {
                return List.of(r);
            }
            List<ExecuteRequest> out = new ArrayList<>(texts.size());
            texts.forEach(t -> out.add(r.withSql(t)));
            return out;
        }
        if (a.kind() != StatementKind.WRITE && !a.needsRewrite()) {
            return List.of(r);
        }
        String text = text(s, a, r.sql());
        return List.of(unchanged(text, r.sql()) ? r : r.withSql(text));
    }

    /** One statement of a write, or of a {@code Statement.addBatch} batch, as every backend must run it. */
    String text(SessionState s, AnalyzedStatement a, String sql) throws SQLException {
        if (a.rewriteSpans() != null) {
            return severalStatements(s, a, sql);
        }
        if ((a.kind() != StatementKind.WRITE && !a.needsRewrite()) || isDdl(a, sql)) {
            return sql;
        }
        Transaction tx = s.transaction(); // starts it, if this write is the transaction's first statement
        String filled = a.kind() == StatementKind.WRITE ? fill(sql, tx) : sql;
        if (unchanged(filled, sql) && !a.needsRewrite()) {
            return sql;
        }
        return DeterministicRewriter.rewrite(filled, vdb.dialect(), clock(tx));
    }

    /** A prepared statement's JDBC batch: each row gets its own values for per-row functions. */
    DeterministicBatch batch(SessionState s, AnalyzedStatement a, String sql, List<List<Object>> rows)
            throws SQLException {
        if (a.rewriteSpans() != null) {
            return new DeterministicBatch(severalStatements(s, a, sql), rows);
        }
        if ((a.kind() != StatementKind.WRITE && !a.needsRewrite()) || isDdl(a, sql)) {
            return new DeterministicBatch(sql, rows);
        }
        Transaction tx = s.transaction();
        String filled = a.kind() == StatementKind.WRITE ? fill(sql, tx) : sql;
        if (unchanged(filled, sql) && !a.needsRewrite()) {
            return new DeterministicBatch(sql, rows);
        }
        return DeterministicRewriter.rewriteBatch(filled, rows, vdb.dialect(), clock(tx));
    }

    /** Whether a rewriter handed back its input itself, which it does when it had nothing to change. */
    @SuppressWarnings("ReferenceEquality") // "nothing changed" is the input itself, by contract; the cheap test
    private static boolean unchanged(String out, String in) {
        return out == in;
    }
    /**
     * A text of several statements: the calls of its writes are replaced (not those of its DDL, where a
     * DEFAULT now() is the point). The volatile defaults its writes may rely on are not filled in, since
     * the rewriting of defaults reads one statement: such a text is refused rather than left to diverge.
     */
    private String severalStatements(SessionState s, AnalyzedStatement a, String sql) throws SQLException {
        Transaction tx = s.transaction(); // starts it, if this text is the transaction's first statement
        Long txId = tx == null ? null : tx.id();
        catalog().readNewlyEnabled(vdb.backends());
        for (String table : a.tablesWritten()) {
            TableColumns columns = catalog().table(table, txId);
            if (columns != null && !columns.volatileColumns().isEmpty()) {
                throw new SQLException(
                        "this text of several statements writes " + table + ", whose column "
                                + columns.volatileColumns().get(0).name()
                                + " has a volatile default that each backend would compute for"
                                + " itself: send its statements one at a time, so that the controller can compute that value once",
                        SqlStates.FEATURE_NOT_SUPPORTED);
            }
        }
        return a.needsRewrite() ? DeterministicRewriter.rewrite(sql, vdb.dialect(), clock(tx), a.rewriteSpans()) : sql;
    }

    private String fill(String sql, Transaction tx) throws SQLException {
        catalog().readNewlyEnabled(vdb.backends());
        return defaults().fill(sql, vdb.dialect(), tx == null ? null : tx.id());
    }

    /** With {@code onVolatileTrigger="refuse"}, a write to a table whose trigger calls now() and the like fails here. */
    void refuseIfTriggered(SessionState s, AnalyzedStatement a) throws SQLException {
        if (a.kind() == StatementKind.WRITE && !a.tablesWritten().isEmpty()) {
            Transaction tx = s.currentTransaction();
            catalog().refuseIfTriggered(a.tablesWritten(), tx == null ? null : tx.id());
        }
    }

    /**
     * The tables whose columns or triggers a write may change, for the catalogue to be read again once
     * it ran: those its DDL names, or null (every table) when their reach is unknown; empty for no DDL.
     *
     * @param texts the statements as sent, one per analysis ({@link #isDdl})
     */
    Set<String> schemaScope(List<AnalyzedStatement> statements, List<String> texts) throws SQLException {
        Set<String> scope = new LinkedHashSet<>();
        for (int i = 0; i < statements.size(); i++) {
            AnalyzedStatement a = statements.get(i);
            if (!isDdl(a, texts.get(i)) && a.schemaChange() == null) {
                continue;
            }
            if (a.touchesEverything()) {
                return null;
            }
            scope.addAll(a.tablesWritten());
            if (a.schemaChange() != null) {
                scope.add(a.schemaChange().name());
                if (a.schemaChange().newName() != null) {
                    scope.add(a.schemaChange().newName());
                }
            }
        }
        return scope;
    }

    /**
     * DDL, including what the parser cannot read and the analyser therefore takes for a write touching
     * everything ({@code DROP TRIGGER}, MariaDB's {@code CREATE TABLE … DEFAULT uuid()}): its first word
     * tells. A DEFAULT now() there is the point, not a value to compute.
     */
    private boolean isDdl(AnalyzedStatement a, String sql) throws SQLException {
        return a.kind() == StatementKind.DDL
                || (a.kind() == StatementKind.WRITE
                        && a.touchesEverything()
                        && a.schemaChange() == null
                        && SqlTokens.of(sql, vdb.dialect()).isAnyWord(0, DDL_WORDS));
    }

    /**
     * The work with, after it succeeded on a backend, a read of what the DDL changed there, on the
     * same connection: in a PostgreSQL transaction it sees the transaction's own DDL. A failed read
     * does not fail the DDL, which succeeded.
     */
    BackendWork followingCatalog(BackendWork work, Set<String> scope, SessionState s) throws SQLException {
        Transaction tx =
                s.transaction(); // the write path starts it too, if this DDL is the transaction's first statement
        Long txId = tx == null ? null : tx.id();
        return c -> {
            StatementResult result = work.run(c);
            try {
                catalog().readAfterDdl(c, scope, txId);
            } catch (SQLException e) {
                log.warn(
                        "virtual database {}: cannot read the column defaults and triggers changed by DDL ({}); inserts relying on"
                                + " volatile defaults of {} may differ between backends until the next start",
                        vdb.name(),
                        e.getMessage(),
                        scope == null ? "any table" : scope);
            }
            return result;
        };
    }

    /** DDL failed where some backend applied it and read its catalogue: the tables are read again. */
    void ddlFailed(Set<String> scope, SessionState s) {
        if (s.currentTransaction() == null) {
            catalog().readAgain(vdb.backends(), scope);
        }
    }

    /** A transaction commits: what its DDL changed becomes what every session sees (before its locks are released). */
    Runnable committing(Transaction tx) {
        return catalog().committing(tx.id(), vdb.backends());
    }

    /** A transaction ended: its own view of the catalogue is dropped. */
    void ended(Transaction tx) {
        catalog().ended(tx.id());
    }

    private static StatementClock clock(Transaction tx) {
        return StatementClock.now(tx == null ? null : tx.start());
    }

    private VolatileDefaults defaults() {
        return vdb.volatileDefaults();
    }

    private VolatileCatalog catalog() {
        return vdb.volatileDefaults().catalog();
    }
}
