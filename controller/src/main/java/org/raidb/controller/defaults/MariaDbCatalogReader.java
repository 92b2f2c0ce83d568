package org.raidb.controller.defaults;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.raidb.controller.determinism.NonDeterministicCalls;
import org.raidb.controller.determinism.SqlDialect;

/**
 * MariaDB and MySQL: {@code information_schema.COLUMNS} (COLUMN_DEFAULT, and EXTRA for ON UPDATE)
 * and {@code information_schema.TRIGGERS}, for the current database.
 *
 * <p>MariaDB prints a default as SQL: string defaults quoted, expressions as written. MySQL prints
 * string defaults unquoted, so there a default is an expression only when EXTRA says
 * DEFAULT_GENERATED or it is CURRENT_TIMESTAMP.
 */
final class MariaDbCatalogReader implements CatalogReader {
    private static final String COLUMNS =
            "SELECT TABLE_NAME, COLUMN_NAME, COLUMN_DEFAULT, EXTRA FROM information_schema.COLUMNS"
                    + " WHERE TABLE_SCHEMA = DATABASE()";
    private static final String TRIGGERS = "SELECT EVENT_OBJECT_TABLE, TRIGGER_NAME, ACTION_STATEMENT"
            + " FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()";
    private static final String ON_UPDATE = "on update ";

    private final boolean mysql;

    MariaDbCatalogReader(boolean mysql) {
        this.mysql = mysql;
    }

    @Override
    public CatalogSnapshot read(Connection c, Collection<String> tables) throws SQLException {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        Map<String, List<VolatileColumn>> volatileColumns = new LinkedHashMap<>();
        try (PreparedStatement ps =
                c.prepareStatement(COLUMNS + only("TABLE_NAME", tables) + " ORDER BY TABLE_NAME, ORDINAL_POSITION")) {
            bindTables(ps, tables);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String table = CatalogReader.key(rs.getString(1), true);
                    String column = rs.getString(2);
                    String extra = rs.getString(4) == null ? "" : rs.getString(4);
                    columns.computeIfAbsent(table, t -> new ArrayList<>()).add(column);
                    String insert = expression(rs.getString(3), extra);
                    String update = onUpdate(extra);
                    boolean volatileInsert =
                            insert != null && NonDeterministicCalls.mayContain(insert, SqlDialect.MARIADB);
                    if (volatileInsert || update != null) {
                        volatileColumns
                                .computeIfAbsent(table, t -> new ArrayList<>())
                                .add(new VolatileColumn(column, volatileInsert ? insert : null, update));
                    }
                }
            }
        }
        Map<String, TableColumns> found = new LinkedHashMap<>();
        volatileColumns.forEach((table, vc) -> found.put(table, new TableColumns(table, columns.get(table), vc, true)));
        List<VolatileTrigger> triggers = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(TRIGGERS + only("EVENT_OBJECT_TABLE", tables) + " ORDER BY 1, 2")) {
            bindTables(ps, tables);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String> calls = NonDeterministicCalls.found(rs.getString(3), SqlDialect.MARIADB);
                    if (!calls.isEmpty()) {
                        triggers.add(new VolatileTrigger(
                                CatalogReader.key(rs.getString(1), true), rs.getString(2), null, calls));
                    }
                }
            }
        }
        return new CatalogSnapshot(found, triggers);
    }

    /** The default as an expression, or null for none or a literal MySQL printed unquoted. */
    private String expression(String columnDefault, String extra) {
        if (columnDefault == null || !mysql) {
            return columnDefault;
        }
        boolean generated = extra.toUpperCase(Locale.ROOT).contains("DEFAULT_GENERATED");
        return generated || columnDefault.toUpperCase(Locale.ROOT).startsWith("CURRENT_TIMESTAMP")
                ? columnDefault
                : null;
    }

    /** {@code on update current_timestamp(3)} in EXTRA, possibly after DEFAULT_GENERATED (MySQL). */
    private static String onUpdate(String extra) {
        int at = extra.toLowerCase(Locale.ROOT).indexOf(ON_UPDATE);
        return at < 0 ? null : extra.substring(at + ON_UPDATE.length()).trim();
    }

    /** Lower-case names are compared with LOWER(): the analyser folds what MariaDB keeps as created. */
    private static String only(String column, Collection<String> tables) {
        if (tables == null) {
            return "";
        }
        return tables.isEmpty()
                ? " AND 1 = 0"
                : " AND LOWER(" + column + ") IN (" + "?, ".repeat(tables.size() - 1) + "?)";
    }

    private static void bindTables(PreparedStatement ps, Collection<String> tables) throws SQLException {
        if (tables != null) {
            int i = 1;
            for (String t : tables) {
                ps.setString(i++, t.toLowerCase(Locale.ROOT));
            }
        }
    }
}
