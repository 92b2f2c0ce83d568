package org.raidb.controller.keys;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import org.raidb.controller.analysis.TableNames;
import org.raidb.controller.keys.TableKeys.Action;
import org.raidb.controller.keys.TableKeys.ForeignKey;
import org.raidb.controller.keys.TableKeys.KeyColumn;
import org.raidb.controller.keys.TableKeys.Omitted;
import org.raidb.controller.keys.TableKeys.UniqueIndex;
import org.raidb.controller.keys.TableKeys.ValueType;

/**
 * MariaDB (and MySQL): {@code information_schema} COLUMNS, STATISTICS, KEY_COLUMN_USAGE with
 * REFERENTIAL_CONSTRAINTS, and TRIGGERS, for the current database. Names are held lower-case, and
 * string columns are never keys here: their collations compare case- and accent-insensitively
 * ({@code 'A' = 'a'}), which the controller does not reproduce.
 */
final class MariaDbKeyReader implements KeyReader {
    private static final String TABLES = "SELECT TABLE_NAME FROM information_schema.TABLES"
            + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'";
    private static final String COLUMNS =
            "SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE, NUMERIC_SCALE, COLUMN_DEFAULT, EXTRA"
                    + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()";
    private static final String UNIQUE_INDEXES = "SELECT TABLE_NAME, INDEX_NAME, COLUMN_NAME, SUB_PART"
            + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0";
    private static final String FOREIGN_KEYS =
            "SELECT k.TABLE_NAME, k.CONSTRAINT_NAME, k.COLUMN_NAME, k.REFERENCED_TABLE_NAME,"
                    + " k.REFERENCED_COLUMN_NAME, r.DELETE_RULE, r.UPDATE_RULE FROM information_schema.KEY_COLUMN_USAGE k"
                    + " JOIN information_schema.REFERENTIAL_CONSTRAINTS r ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA"
                    + " AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME"
                    + " WHERE k.CONSTRAINT_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL";
    private static final String TRIGGERS = "SELECT DISTINCT EVENT_OBJECT_TABLE FROM information_schema.TRIGGERS"
            + " WHERE TRIGGER_SCHEMA = DATABASE()";
    private static final Set<String> INTEGERS = Set.of("tinyint", "smallint", "mediumint", "int", "integer", "bigint");

    @Override
    public Snapshot read(Connection c, Collection<String> tables) throws SQLException {
        Map<String, TableKeysBuilder> found = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(TABLES + only("TABLE_NAME", tables))) {
            bind(ps, tables, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(lower(rs.getString(1)), new TableKeysBuilder(lower(rs.getString(1))));
                }
            }
        }
        try (PreparedStatement ps =
                c.prepareStatement(COLUMNS + only("TABLE_NAME", tables) + " ORDER BY TABLE_NAME, ORDINAL_POSITION")) {
            bind(ps, tables, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TableKeysBuilder b = found.get(lower(rs.getString(1)));
                    if (b != null) {
                        b.columns.add(column(b.table, rs));
                    }
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(UNIQUE_INDEXES + only("TABLE_NAME", tables)
                + " ORDER BY TABLE_NAME, INDEX_NAME = 'PRIMARY' DESC, INDEX_NAME, SEQ_IN_INDEX")) {
            bind(ps, tables, 1);
            try (ResultSet rs = ps.executeQuery()) {
                String table = null;
                String index = null;
                List<String> columns = null;
                while (rs.next()) {
                    String t = lower(rs.getString(1));
                    if (!t.equals(table) || !rs.getString(2).equals(index)) {
                        addIndex(found, table, index, columns);
                        table = t;
                        index = rs.getString(2);
                        columns = new ArrayList<>();
                    }
                    String column = rs.getString(3);
                    if (column == null || rs.getObject(4) != null || columns == null) {
                        columns = null; // a functional or prefix index: its values are not the columns'
                    } else {
                        columns.add(lower(column));
                    }
                }
                addIndex(found, table, index, columns);
            }
        }
        readForeignKeys(c, tables, found);
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(TRIGGERS)) {
            while (rs.next()) {
                TableKeysBuilder b = found.get(lower(rs.getString(1)));
                if (b != null) {
                    b.triggers = true;
                }
            }
        }
        Map<String, TableKeys> out = new LinkedHashMap<>();
        found.forEach((name, b) -> out.put(name, b.build(true)));
        return new Snapshot(database(c), out);
    }

    private static void readForeignKeys(Connection c, Collection<String> tables, Map<String, TableKeysBuilder> found)
            throws SQLException {
        String filter = tables == null
                ? ""
                : " AND (" + in("LOWER(k.TABLE_NAME)", tables) + " OR " + in("LOWER(k.REFERENCED_TABLE_NAME)", tables)
                        + ")";
        try (PreparedStatement ps = c.prepareStatement(
                FOREIGN_KEYS + filter + " ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION")) {
            bind(ps, tables, 2);
            try (ResultSet rs = ps.executeQuery()) {
                String key = null;
                String[] row = null;
                List<String> childColumns = new ArrayList<>();
                List<String> parentColumns = new ArrayList<>();
                while (rs.next()) {
                    String k = rs.getString(1) + "\0" + rs.getString(2);
                    if (!k.equals(key)) {
                        addForeignKey(found, row, childColumns, parentColumns);
                        key = k;
                        row = new String[] {
                            lower(rs.getString(1)), lower(rs.getString(4)), rs.getString(6), rs.getString(7)
                        };
                        childColumns = new ArrayList<>();
                        parentColumns = new ArrayList<>();
                    }
                    childColumns.add(lower(rs.getString(3)));
                    parentColumns.add(lower(rs.getString(5)));
                }
                addForeignKey(found, row, childColumns, parentColumns);
            }
        }
    }

    private static void addForeignKey(
            Map<String, TableKeysBuilder> found, String[] row, List<String> childColumns, List<String> parentColumns) {
        if (row == null) {
            return;
        }
        TableKeysBuilder.add(
                found, new ForeignKey(row[0], childColumns, row[1], parentColumns, action(row[2]), action(row[3])));
    }

    private static void addIndex(
            Map<String, TableKeysBuilder> found, String table, String index, List<String> columns) {
        TableKeysBuilder b = table == null ? null : found.get(table);
        if (b != null) {
            b.unique.add(new UniqueIndex(index, columns, index.equals("PRIMARY"), true));
        }
    }

    private static KeyColumn column(String table, ResultSet rs) throws SQLException {
        String name = lower(rs.getString(2));
        String type = lower(rs.getString(3));
        ValueType valueType = INTEGERS.contains(type)
                ? ValueType.INTEGER
                : type.equals("decimal") || type.equals("numeric") ? ValueType.NUMERIC : ValueType.OTHER;
        int scale = valueType == ValueType.NUMERIC && rs.getObject(4) != null ? rs.getInt(4) : -1;
        String extra = rs.getString(6) == null ? "" : lower(rs.getString(6));
        if (extra.contains("auto_increment")) {
            // One counter per table, moved by every insert, explicit values included.
            return new KeyColumn(name, valueType, scale, Omitted.FRESH, table + " auto_increment", true);
        }
        if (extra.contains("generated")) {
            return new KeyColumn(name, valueType, scale, Omitted.OTHER, null, false);
        }
        String def = rs.getString(5);
        if (def == null || def.equalsIgnoreCase("NULL")) {
            return new KeyColumn(name, valueType, scale, Omitted.NULL, null, false);
        }
        String sequence = sequenceOf(def);
        return sequence == null
                ? new KeyColumn(name, valueType, scale, Omitted.OTHER, null, false)
                : new KeyColumn(name, valueType, scale, Omitted.FRESH, sequence, false);
    }

    /** The sequence of a default {@code nextval(`db`.`s`)} or {@code NEXT VALUE FOR s}, or null. */
    private static String sequenceOf(String def) {
        if (!def.toLowerCase(Locale.ROOT).contains("next")) {
            return null;
        }
        try {
            Expression e = CCJSqlParserUtil.parseExpression(def);
            if (e instanceof NextValExpression next) {
                return lower(TableNames.canonical(next.getName()));
            }
            if (e instanceof Function f
                    && f.getName().equalsIgnoreCase("nextval")
                    && f.getParameters() != null
                    && f.getParameters().size() == 1
                    && f.getParameters().get(0) instanceof Column s) {
                return lower(TableNames.canonical(s.getFullyQualifiedName()));
            }
        } catch (JSQLParserException | RuntimeException e) {
            // not a sequence default this reader knows
        }
        return null;
    }

    private static Action action(String rule) {
        return switch (rule == null ? "" : rule.toUpperCase(Locale.ROOT)) {
            case "CASCADE" -> Action.CASCADE;
            case "SET NULL" -> Action.SET_NULL;
            case "SET DEFAULT" -> Action.SET_DEFAULT;
            case "RESTRICT" -> Action.RESTRICT;
            default -> Action.NO_ACTION;
        };
    }

    private static String only(String column, Collection<String> tables) {
        return tables == null ? "" : " AND " + in("LOWER(" + column + ")", tables);
    }

    private static String in(String column, Collection<String> tables) {
        return tables.isEmpty() ? "1 = 0" : column + " IN (" + "?, ".repeat(tables.size() - 1) + "?)";
    }

    private static void bind(PreparedStatement ps, Collection<String> tables, int times) throws SQLException {
        if (tables != null) {
            int i = 1;
            for (int t = 0; t < times; t++) {
                for (String name : tables) {
                    ps.setString(i++, lower(name));
                }
            }
        }
    }

    private static String database(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT DATABASE()")) {
            return rs.next() && rs.getString(1) != null ? lower(rs.getString(1)) : null;
        }
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
