package org.raidb.controller.defaults;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.Values;
import org.raidb.controller.determinism.NonDeterministicCalls;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.determinism.SqlTokens;
import org.raidb.controller.determinism.StatementClock;
import org.raidb.driver.protocol.SqlStates;

/**
 * Makes the writes that rely on volatile column defaults deterministic (DESIGN, "Rules that keep
 * replicas identical"): an INSERT gets the defaults it relies on written in, a MariaDB UPDATE its
 * ON UPDATE columns, and the call rewriter then replaces the calls with literals computed once. An
 * ALTER TABLE … ADD COLUMN gives the rows already there one value. See docs/determinism.md.
 *
 * <p>Statements are read with JSqlParser and placed with their code tokens: the additions go into
 * the client's text, which is otherwise sent as written. Readings are cached by text, like the
 * analyser's.
 */
public final class VolatileDefaults {
    private static final int CACHE_LIMIT = 10_000;

    private final VolatileCatalog catalog;
    private final Map<String, Shape> shapes = new ConcurrentHashMap<>();

    /** As in the analyser: a parse has 2 s there, so that a pathological text cannot hold a session. */
    private final ExecutorService parserThreads;

    /** With threads of its own for parsing, which end after a minute idle (tests). */
    public VolatileDefaults(VolatileCatalog catalog) {
        this(catalog, Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "raidb-defaults-parser");
            t.setDaemon(true);
            return t;
        }));
    }

    /** @param parserThreads where parses run (the controller's) */
    public VolatileDefaults(VolatileCatalog catalog, ExecutorService parserThreads) {
        this.catalog = catalog;
        this.parserThreads = parserThreads;
    }

    public VolatileCatalog catalog() {
        return catalog;
    }

    /** What a write is, as far as its defaults go; {@code layout} is null when an INSERT could not be read. */
    private record Shape(Kind kind, String table, SqlTokens tokens, InsertLayout layout, int tableToken) {}

    private enum Kind {
        INSERT,
        UPDATE,
        MERGE,
        OTHER
    }

    private static final Shape OTHER = new Shape(Kind.OTHER, null, null, null, -1);

    /**
     * The write with the values it leaves to the backends' volatile defaults written in as those
     * defaults' expressions, still calling now() and the like; the same String when it relies on none.
     *
     * @param transaction the write's transaction, which may have changed defaults of its own; null in auto-commit
     * @throws SQLException 0A000 when the statement relies on such a default in a way that cannot be
     *     made deterministic
     */
    public String fill(String sql, SqlDialect dialect, Long transaction) throws SQLException {
        if (catalog.noVolatileColumns(transaction)) {
            return sql;
        }
        Shape shape = shape(sql, dialect);
        if (shape.kind == Kind.OTHER) {
            return sql;
        }
        TableColumns table = catalog.table(shape.table, transaction);
        if (table == null) {
            return sql;
        }
        if (shape.kind == Kind.UPDATE) {
            return UpdateDefaults.fill(shape.tokens, table, shape.tableToken);
        }
        if (shape.kind == Kind.MERGE) {
            MergeDefaults.refuseIfRelying(shape.tokens, table);
            return sql;
        }
        if (shape.layout == null) {
            VolatileColumn first = table.volatileColumns().stream()
                    .filter(c -> c.insertDefault() != null)
                    .findFirst()
                    .orElse(null);
            if (first == null) {
                return sql; // only ON UPDATE columns, which an INSERT leaves alone
            }
            throw new SQLException(
                    "this INSERT into " + table.table() + " may rely on the default " + first.insertDefault()
                            + " of column " + first.name()
                            + ", which each backend would compute for itself, and the controller cannot read"
                            + " which columns it fills: give " + first.name()
                            + " a value, or write the INSERT as INSERT INTO table"
                            + " (columns) VALUES (…) or INSERT INTO table (columns) SELECT …",
                    SqlStates.FEATURE_NOT_SUPPORTED);
        }
        return InsertDefaults.fill(sql, shape.layout, table, dialect);
    }

    /**
     * The statements to run instead of an ALTER TABLE that adds a column with a volatile default: see
     * {@link AddColumnDefaults}. {@code sql} alone for any other DDL.
     */
    public List<String> addColumns(String sql, SqlDialect dialect, StatementClock clock) throws SQLException {
        if (!NonDeterministicCalls.mayContain(sql, dialect)) {
            return List.of(sql);
        }
        return AddColumnDefaults.rewrite(sql, dialect, clock);
    }

    private Shape shape(String sql, SqlDialect dialect) {
        Shape cached = shapes.get(sql);
        if (cached != null) {
            return cached;
        }
        if (shapes.size() >= CACHE_LIMIT) {
            shapes.clear();
        }
        return shapes.computeIfAbsent(sql, text -> read(text, dialect));
    }

    private Shape read(String sql, SqlDialect dialect) {
        SqlTokens tokens = SqlTokens.of(sql, dialect);
        if (tokens.isWord(0, "UPDATE")) {
            int table = UpdateDefaults.target(tokens);
            return table < 0 ? OTHER : new Shape(Kind.UPDATE, tokens.name(table), tokens, null, table);
        }
        if (tokens.isWord(0, "MERGE")) {
            int table = MergeDefaults.target(tokens);
            return table < 0 ? OTHER : new Shape(Kind.MERGE, tokens.name(table), tokens, null, table);
        }
        if (!tokens.isAnyWord(0, "INSERT", "REPLACE", "WITH")) {
            return OTHER;
        }
        InsertLayout layout = InsertLayout.of(tokens);
        Statement parsed = parse(sql);
        if (parsed == null) {
            // JSqlParser 5.0 reads neither DEFAULT VALUES nor OVERRIDING … VALUE: the tokens alone place those.
            return layout == null ? OTHER : new Shape(Kind.INSERT, layout.table, tokens, layout, -1);
        }
        if (!(parsed instanceof Insert insert)) {
            return parsed instanceof net.sf.jsqlparser.statement.upsert.Upsert && layout != null
                    ? new Shape(Kind.INSERT, layout.table, tokens, layout, -1)
                    : OTHER;
        }
        String table = org.raidb.controller.analysis.TableNames.canonical(
                insert.getTable().getFullyQualifiedName());
        return new Shape(
                Kind.INSERT, table, tokens, layout != null && agrees(insert, table, layout) ? layout : null, -1);
    }

    private Statement parse(String sql) {
        try {
            return CCJSqlParserUtil.parse(sql, parserThreads, parser -> parser.withTimeOut(2000));
        } catch (JSQLParserException | RuntimeException e) {
            return null;
        }
    }

    /** The tokens were read as JSqlParser reads the statement: same table, columns, rows or SELECTs. */
    private static boolean agrees(Insert insert, String table, InsertLayout layout) {
        if (!table.equalsIgnoreCase(layout.table)) {
            return false;
        }
        int columns = insert.getColumns() == null ? -1 : insert.getColumns().size();
        if (columns != (layout.columns == null ? -1 : layout.columns.size())) {
            return false;
        }
        if (insert.getSetUpdateSets() != null) {
            return layout.source == InsertLayout.Source.SET;
        }
        Select select = insert.getSelect();
        while (select instanceof ParenthesedSelect p) {
            select = p.getSelect();
        }
        if (select instanceof Values values) {
            int rows = values.getExpressions() instanceof ParenthesedExpressionList<?>
                    ? 1
                    : values.getExpressions().size();
            return layout.source == InsertLayout.Source.VALUES && layout.rows.size() == rows;
        }
        if (layout.source != InsertLayout.Source.QUERY) {
            return false;
        }
        if (select instanceof PlainSelect) {
            return layout.selects.size() == 1;
        }
        return select instanceof SetOperationList set
                && set.getSelects().stream().allMatch(s -> s instanceof PlainSelect)
                && set.getSelects().size() == layout.selects.size();
    }
}
