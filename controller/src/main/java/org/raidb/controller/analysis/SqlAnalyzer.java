package org.raidb.controller.analysis;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.alter.AlterOperation;
import net.sf.jsqlparser.statement.alter.RenameTableStatement;
import net.sf.jsqlparser.statement.alter.sequence.AlterSequence;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.sequence.CreateSequence;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.ForeignKeyIndex;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.create.view.AlterView;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.execute.Execute;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.truncate.Truncate;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.util.TablesNamesFinder;
import org.raidb.controller.determinism.LimitWithoutOrder;
import org.raidb.controller.determinism.NonDeterministicCalls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Classifies SQL and finds the tables it reads and writes, with JSqlParser. Results are cached by SQL
 * text, so a prepared statement is parsed once however often it runs.
 *
 * <p>Transaction demarcation and session settings are recognised by their first keyword before any
 * parsing: they are frequent, trivially recognisable, and several of their spellings (BEGIN, END,
 * ABORT) are PostgreSQL-only.
 */
public final class SqlAnalyzer {
  private static final Logger log = LoggerFactory.getLogger(SqlAnalyzer.class);
  private static final int CACHE_LIMIT = 10_000;
  /** Parsing runs with a timeout so that a pathological statement cannot hold a session forever. */
  private static final ExecutorService PARSER_THREADS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "raidb-sql-parser");
    t.setDaemon(true);
    return t;
  });

  private final ConcurrentHashMap<String, AnalyzedStatement> cache = new ConcurrentHashMap<>();
  private final Set<String> warnedUnparsable = ConcurrentHashMap.newKeySet();

  public AnalyzedStatement analyze(String sql) {
    AnalyzedStatement cached = cache.get(sql);
    if (cached != null) {
      return cached;
    }
    if (cache.size() >= CACHE_LIMIT) {
      cache.clear(); // crude but bounded; workloads with more distinct texts than this are rare and gain little
    }
    // One parse per text, even when many sessions send a new text at once.
    return cache.computeIfAbsent(sql, this::analyzeUncached);
  }

  /**
   * A statement the client sent as a call (JDBC CallableStatement), whatever its text: the function
   * may write anything, so it runs on every backend, ordered against every write. Not cached: no
   * parse is needed.
   */
  public AnalyzedStatement analyzeCall(String sql) {
    return AnalyzedStatement.unknown(StatementKind.CALL).withDeterminism(NonDeterministicCalls.mayContain(sql), null);
  }

  int cacheSize() {
    return cache.size();
  }

  private AnalyzedStatement analyzeUncached(String sql) {
    String[] words = SqlText.firstWords(sql, 3);
    String first = words[0];
    switch (first) {
      case "BEGIN":
      case "START":
        return AnalyzedStatement.transaction(TransactionCommand.BEGIN, null);
      case "COMMIT":
      case "END":
        return AnalyzedStatement.transaction(TransactionCommand.COMMIT, null);
      case "ABORT":
        return AnalyzedStatement.transaction(TransactionCommand.ROLLBACK, null);
      case "ROLLBACK":
        if (words[1].equals("TO")) {
          String name = words[2].equals("SAVEPOINT") ? SqlText.wordAfter(sql, "SAVEPOINT") : words[2];
          return AnalyzedStatement.transaction(TransactionCommand.ROLLBACK_TO_SAVEPOINT, name);
        }
        return AnalyzedStatement.transaction(TransactionCommand.ROLLBACK, null);
      case "SAVEPOINT":
        return AnalyzedStatement.transaction(TransactionCommand.SAVEPOINT, SqlText.wordAfter(sql, "SAVEPOINT"));
      case "RELEASE":
        String name = words[1].equals("SAVEPOINT") ? SqlText.wordAfter(sql, "SAVEPOINT") : words[1];
        return AnalyzedStatement.transaction(TransactionCommand.RELEASE_SAVEPOINT, name);
      case "SET":
      case "RESET":
      case "DISCARD":
        return new AnalyzedStatement(StatementKind.SESSION_SETTING, Set.of(), Set.of(), false, null, null);
      case "SHOW":
        return AnalyzedStatement.of(StatementKind.READ, Set.of(), Set.of());
      default:
        return analyzeParsed(sql);
    }
  }

  private AnalyzedStatement analyzeParsed(String sql) {
    Statement statement;
    try {
      statement = CCJSqlParserUtil.parse(sql, PARSER_THREADS, parser -> parser.withTimeOut(2000));
    } catch (JSQLParserException | RuntimeException e) {
      if (warnedUnparsable.size() < CACHE_LIMIT && warnedUnparsable.add(sql)) {
        log.warn("SQL not understood by the parser, treated as a write touching every table and serialized: {}",
            SqlText.abbreviate(sql));
      }
      return AnalyzedStatement.unknown(StatementKind.WRITE).withDeterminism(NonDeterministicCalls.mayContain(sql), null);
    }
    try {
      AnalyzedStatement a = classify(statement, sql);
      String refusal = LimitWithoutOrder.problem(statement).orElse(null);
      boolean calls = a.kind().isWrite() && NonDeterministicCalls.mayContain(sql);
      return calls || refusal != null ? a.withDeterminism(calls, refusal) : a;
    } catch (RuntimeException e) {
      // TablesNamesFinder refuses some statement types; fall back to the conservative answer.
      log.debug("cannot find the tables of {}: {}", SqlText.abbreviate(sql), e.toString());
      return AnalyzedStatement.unknown(statement instanceof Select ? StatementKind.WRITE : StatementKind.DDL)
          .withDeterminism(NonDeterministicCalls.mayContain(sql), null);
    }
  }

  private AnalyzedStatement classify(Statement statement, String sql) {
    if (statement instanceof Select select) {
      if (select instanceof PlainSelect plain && plain.getIntoTables() != null && !plain.getIntoTables().isEmpty()) {
        Set<String> written = canonical(plain.getIntoTables().stream().map(Table::getFullyQualifiedName).toList());
        AnalyzedStatement into = AnalyzedStatement.of(StatementKind.DDL, minus(tables(statement), written), written);
        return written.size() == 1 ? into.withSchemaChange(SchemaChange.create(written.iterator().next())) : into;
      }
      Set<String> read = tables(statement);
      if (SqlText.callsSequenceFunction(sql)) {
        return sequenceCall(StatementKind.WRITE, read, Set.of());
      }
      if (SqlText.locksRows(sql)) {
        // Row locks must be taken on every backend, in the write order.
        return AnalyzedStatement.of(StatementKind.WRITE, read, Set.of());
      }
      return AnalyzedStatement.of(StatementKind.READ, read, Set.of());
    }
    Table target = writeTarget(statement);
    if (target != null) {
      Set<String> written = Set.of(TableNames.canonical(target.getFullyQualifiedName()));
      Set<String> read = minus(tables(statement), written);
      return SqlText.callsSequenceFunction(sql) ? sequenceCall(StatementKind.WRITE, read, written)
          : AnalyzedStatement.of(StatementKind.WRITE, read, written);
    }
    if (statement instanceof CreateTable create) {
      return createdTable(create);
    }
    if (statement instanceof CreateView view) {
      String name = TableNames.canonical(view.getView().getFullyQualifiedName());
      return AnalyzedStatement.of(StatementKind.DDL, minus(tables(view.getSelect()), Set.of(name)), Set.of(name))
          .withSchemaChange(SchemaChange.create(name));
    }
    if (statement instanceof CreateSequence cs) {
      // A sequence may feed any table (see sequenceCall): created on every backend, in the order of every write.
      return AnalyzedStatement.unknown(StatementKind.DDL)
          .withSchemaChange(SchemaChange.create(TableNames.canonical(cs.getSequence().getFullyQualifiedName())));
    }
    if (statement instanceof Drop d && "SEQUENCE".equalsIgnoreCase(d.getType())) {
      return AnalyzedStatement.unknown(StatementKind.DDL)
          .withSchemaChange(SchemaChange.drop(TableNames.canonical(d.getName().getFullyQualifiedName()), d.isIfExists()));
    }
    if (statement instanceof AlterSequence) {
      return AnalyzedStatement.unknown(StatementKind.DDL);
    }
    if (statement instanceof Alter alter) {
      return altered(alter);
    }
    if (statement instanceof RenameTableStatement rename && rename.getTableNames().size() == 1) {
      Map.Entry<Table, Table> pair = rename.getTableNames().iterator().next();
      String from = TableNames.canonical(pair.getKey().getFullyQualifiedName());
      return AnalyzedStatement.of(StatementKind.DDL, Set.of(), Set.of(from))
          .withSchemaChange(SchemaChange.rename(from, TableNames.canonical(pair.getValue().getFullyQualifiedName())));
    }
    if (statement instanceof Truncate truncate) {
      // TRUNCATE a, b parses but keeps one table; several names are treated as touching everything.
      if (SqlText.namesSeveralTables(sql)) {
        return AnalyzedStatement.unknown(StatementKind.WRITE);
      }
      return AnalyzedStatement.of(StatementKind.WRITE, Set.of(), Set.of(TableNames.canonical(truncate.getTable().getFullyQualifiedName())));
    }
    String ddlTarget = ddlTarget(statement);
    if (ddlTarget != null) {
      String name = TableNames.canonical(ddlTarget);
      AnalyzedStatement ddl = AnalyzedStatement.of(StatementKind.DDL, Set.of(), Set.of(name));
      return statement instanceof Drop d ? ddl.withSchemaChange(SchemaChange.drop(name, d.isIfExists())) : ddl;
    }
    if (statement instanceof Execute || sql.regionMatches(true, SqlText.start(sql), "CALL", 0, 4)) {
      return AnalyzedStatement.unknown(StatementKind.CALL);
    }
    // Any other statement (GRANT, COMMENT, CREATE SCHEMA/FUNCTION, VACUUM, ...) may change anything.
    return AnalyzedStatement.unknown(StatementKind.DDL);
  }

  /**
   * CREATE [TEMPORARY] TABLE [AS SELECT]: writes the new table and reads its sources, the tables it
   * selects from and those its foreign keys reference, since it can only live where they are.
   */
  private static AnalyzedStatement createdTable(CreateTable create) {
    String name = TableNames.canonical(create.getTable().getFullyQualifiedName());
    Set<String> sources = new LinkedHashSet<>();
    if (create.getSelect() != null) {
      sources.addAll(tables(create.getSelect()));
    }
    if (create.getColumnDefinitions() != null) {
      for (ColumnDefinition column : create.getColumnDefinitions()) {
        String referenced = referencedTable(column.getColumnSpecs());
        if (referenced != null) {
          sources.add(referenced);
        }
      }
    }
    if (create.getIndexes() != null) {
      for (Index index : create.getIndexes()) {
        if (index instanceof ForeignKeyIndex fk && fk.getTable() != null) {
          sources.add(TableNames.canonical(fk.getTable().getFullyQualifiedName()));
        }
      }
    }
    sources.remove(name); // a self-reference is no source
    return AnalyzedStatement.of(StatementKind.DDL, Set.copyOf(sources), Set.of(name))
        .withSchemaChange(SchemaChange.create(name));
  }

  /** The table after REFERENCES in a column's specification ({@code NOT NULL REFERENCES customer (c_id)}). */
  private static String referencedTable(List<String> specs) {
    if (specs == null) {
      return null;
    }
    for (int i = 0; i + 1 < specs.size(); i++) {
      if (specs.get(i).equalsIgnoreCase("REFERENCES")) {
        String table = specs.get(i + 1);
        int paren = table.indexOf('(');
        return TableNames.canonical(paren >= 0 ? table.substring(0, paren) : table);
      }
    }
    return null;
  }

  /** ALTER TABLE: writes the table; reads what an added foreign key references; RENAME TO renames it. */
  private static AnalyzedStatement altered(Alter alter) {
    String name = TableNames.canonical(alter.getTable().getFullyQualifiedName());
    Set<String> read = new LinkedHashSet<>();
    SchemaChange change = null;
    for (AlterExpression e : alter.getAlterExpressions() == null ? List.<AlterExpression>of() : alter.getAlterExpressions()) {
      if (e.getOperation() == AlterOperation.RENAME_TABLE && e.getNewTableName() != null) {
        change = SchemaChange.rename(name, TableNames.canonical(e.getNewTableName()));
      }
      if (e.getIndex() instanceof ForeignKeyIndex fk && fk.getTable() != null) {
        read.add(TableNames.canonical(fk.getTable().getFullyQualifiedName()));
      }
    }
    read.remove(name);
    AnalyzedStatement a = AnalyzedStatement.of(StatementKind.DDL, Set.copyOf(read), Set.of(name));
    return change == null ? a : a.withSchemaChange(change);
  }

  /**
   * A statement calling nextval/setval: the sequence may also feed a serial column of any table, whose
   * inserts take only that table's lock. Ordering the call against every write keeps the values each
   * backend hands out identical.
   */
  private static AnalyzedStatement sequenceCall(StatementKind kind, Set<String> read, Set<String> written) {
    return new AnalyzedStatement(kind, read, written, true, null, null);
  }

  private static Table writeTarget(Statement s) {
    if (s instanceof Insert i) {
      return i.getTable();
    }
    if (s instanceof Update u) {
      return u.getTable();
    }
    if (s instanceof Delete d) {
      return d.getTable() != null ? d.getTable() : (d.getTables() != null && d.getTables().size() == 1 ? d.getTables().get(0) : null);
    }
    if (s instanceof Merge m) {
      return m.getTable();
    }
    return null;
  }

  private static String ddlTarget(Statement s) {
    if (s instanceof Drop d && d.getName() != null
        && ("TABLE".equalsIgnoreCase(d.getType()) || "VIEW".equalsIgnoreCase(d.getType()) || "SEQUENCE".equalsIgnoreCase(d.getType()))) {
      return d.getName().getFullyQualifiedName();
    }
    if (s instanceof CreateIndex ci) {
      return ci.getTable().getFullyQualifiedName();
    }
    if (s instanceof AlterView av) {
      return av.getView().getFullyQualifiedName();
    }
    if (s instanceof AlterSequence as) {
      return as.getSequence().getFullyQualifiedName();
    }
    return null;
  }

  private static Set<String> tables(Statement statement) {
    return canonical(new TablesNamesFinder().getTables(statement));
  }

  private static Set<String> tables(Select select) {
    return canonical(new TablesNamesFinder().getTables((Statement) select));
  }

  private static Set<String> canonical(Iterable<String> names) {
    Set<String> out = new LinkedHashSet<>();
    for (String n : names) {
      if (!TableNames.isSystemCatalog(n)) {
        out.add(TableNames.canonical(n));
      }
    }
    return Set.copyOf(out);
  }

  private static Set<String> minus(Set<String> all, Set<String> remove) {
    Set<String> out = new LinkedHashSet<>(all);
    out.removeAll(remove);
    return Set.copyOf(out);
  }

  static String upper(String s) {
    return s.toUpperCase(Locale.ROOT);
  }
}
