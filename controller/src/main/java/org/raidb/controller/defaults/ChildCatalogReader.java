package org.raidb.controller.defaults;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.raidb.controller.determinism.NonDeterministicCalls;
import org.raidb.controller.determinism.SqlDialect;

/**
 * The catalogue behind a child controller (a {@code jdbc:raidb:} backend). The child answers a
 * catalogue query from one of its backends, which under RAIDb-1 holds every table but under RAIDb-0
 * or -2 only some: the leaf's own reader is asked first (volatile columns and triggers of that
 * leaf), then each table the child lists that the answer left out is asked for through {@link
 * DatabaseMetaData#getColumns}, which the child sends to a backend holding that table. The volatile
 * columns of every table the child holds are so known; the triggers only of the leaf that answered
 * (docs/determinism.md, "Through a child controller").
 */
final class ChildCatalogReader implements CatalogReader {
    /** The kinds of relation an INSERT may write, as JDBC drivers name them. */
    private static final String[] WRITABLE = {"TABLE", "PARTITIONED TABLE", "VIEW", "FOREIGN TABLE"};

    private final CatalogReader leaf;
    private final SqlDialect dialect;

    ChildCatalogReader(CatalogReader leaf, SqlDialect dialect) {
        this.leaf = leaf;
        this.dialect = dialect;
    }

    @Override
    public boolean transactionalDdl() {
        return leaf.transactionalDdl();
    }

    @Override
    public CatalogSnapshot read(Connection c, Collection<String> tables) throws SQLException {
        CatalogSnapshot answered = leaf.read(c, tables);
        Map<String, TableColumns> found = new LinkedHashMap<>(answered.tables());
        DatabaseMetaData md = c.getMetaData();
        String schema = dialect == SqlDialect.POSTGRESQL ? c.getSchema() : null;
        for (String table : tables == null ? listed(md, schema) : tables) {
            String key = CatalogReader.key(table, caseInsensitive());
            if (!found.containsKey(key)) {
                TableColumns columns = columnsOf(md, schema, table);
                if (columns != null) {
                    found.put(key, columns);
                }
            }
        }
        return new CatalogSnapshot(found, answered.triggers());
    }

    /** Every table the child lists: under RAIDb-0 and -2, the union of its backends' (request.MetadataCall). */
    private Set<String> listed(DatabaseMetaData md, String schema) throws SQLException {
        Set<String> out = new LinkedHashSet<>();
        try (ResultSet rs = md.getTables(null, schema, "%", WRITABLE)) {
            while (rs.next()) {
                out.add(rs.getString("TABLE_NAME"));
            }
        }
        return out;
    }

    /** The table's columns from a backend holding it, when some default is volatile; else null. */
    private TableColumns columnsOf(DatabaseMetaData md, String schema, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        List<VolatileColumn> volatileColumns = new ArrayList<>();
        try (ResultSet rs = md.getColumns(null, schema, table, "%")) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (!(caseInsensitive() ? name.equalsIgnoreCase(table) : name.equals(table))) {
                    continue; // the name is a pattern: "_" stands for any character
                }
                String column = rs.getString("COLUMN_NAME");
                columns.add(column);
                String expression = rs.getString("COLUMN_DEF");
                if (expression != null
                        && !"YES".equals(rs.getString("IS_GENERATEDCOLUMN"))
                        && NonDeterministicCalls.mayContain(expression, dialect)) {
                    volatileColumns.add(new VolatileColumn(column, expression, null));
                }
            }
        }
        return volatileColumns.isEmpty() ? null : new TableColumns(table, columns, volatileColumns, caseInsensitive());
    }

    private boolean caseInsensitive() {
        return dialect == SqlDialect.MARIADB;
    }
}
