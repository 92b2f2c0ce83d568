package org.raidb.controller.defaults;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.raidb.controller.determinism.NonDeterministicCalls;
import org.raidb.controller.determinism.SqlDialect;

/**
 * PostgreSQL: column defaults from {@code pg_attrdef} (or the column's domain), printed by
 * {@code pg_get_expr} as they would be written in SQL, and trigger functions' bodies from
 * {@code pg_proc.prosrc}. Generated columns are left out: their expressions are immutable.
 */
final class PostgresCatalogReader implements CatalogReader {
    private static final String COLUMNS = """
      SELECT c.relname, a.attname, pg_get_expr(d.adbin, d.adrelid), t.typdefault
      FROM pg_class c
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      LEFT JOIN pg_type t ON t.oid = a.atttypid AND t.typtype = 'd'
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'f', 'v')""";
    private static final String TRIGGERS = """
      SELECT c.relname, g.tgname, p.proname, p.prosrc
      FROM pg_trigger g
      JOIN pg_class c ON c.oid = g.tgrelid
      JOIN pg_proc p ON p.oid = g.tgfoid
      WHERE NOT g.tgisinternal AND g.tgenabled <> 'D' AND c.relnamespace = current_schema()::regnamespace""";
    private static final String ONLY = " AND c.relname = ANY (?)";

    @Override
    public boolean transactionalDdl() {
        return true;
    }

    @Override
    public CatalogSnapshot read(Connection c, Collection<String> tables) throws SQLException {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        Map<String, List<VolatileColumn>> volatileColumns = new LinkedHashMap<>();
        try (PreparedStatement ps =
                c.prepareStatement(COLUMNS + (tables == null ? "" : ONLY) + " ORDER BY c.relname, a.attnum")) {
            bindTables(c, ps, tables);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String table = rs.getString(1);
                    String column = rs.getString(2);
                    String own = rs.getString(3);
                    String expression = own != null ? own : rs.getString(4);
                    columns.computeIfAbsent(table, t -> new ArrayList<>()).add(column);
                    if (expression != null && NonDeterministicCalls.mayContain(expression, SqlDialect.POSTGRESQL)) {
                        volatileColumns
                                .computeIfAbsent(table, t -> new ArrayList<>())
                                .add(new VolatileColumn(column, expression, null));
                    }
                }
            }
        }
        Map<String, TableColumns> found = new LinkedHashMap<>();
        volatileColumns.forEach(
                (table, vc) -> found.put(table, new TableColumns(table, columns.get(table), vc, false)));
        List<VolatileTrigger> triggers = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(TRIGGERS + (tables == null ? "" : ONLY) + " ORDER BY c.relname, g.tgname")) {
            bindTables(c, ps, tables);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String> calls = NonDeterministicCalls.found(rs.getString(4), SqlDialect.POSTGRESQL);
                    if (!calls.isEmpty()) {
                        triggers.add(new VolatileTrigger(rs.getString(1), rs.getString(2), rs.getString(3), calls));
                    }
                }
            }
        }
        return new CatalogSnapshot(found, triggers);
    }

    private static void bindTables(Connection c, PreparedStatement ps, Collection<String> tables) throws SQLException {
        if (tables != null) {
            Array names = c.createArrayOf("text", tables.toArray());
            ps.setArray(1, names);
        }
    }
}
