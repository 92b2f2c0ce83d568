package org.raidb.controller.keys;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.raidb.controller.keys.TableKeys.Action;
import org.raidb.controller.keys.TableKeys.ForeignKey;
import org.raidb.controller.keys.TableKeys.KeyColumn;
import org.raidb.controller.keys.TableKeys.Omitted;
import org.raidb.controller.keys.TableKeys.UniqueIndex;
import org.raidb.controller.keys.TableKeys.ValueType;

/**
 * PostgreSQL 12 and later: columns from {@code pg_attribute} with their types, collations and
 * defaults ({@code pg_attrdef}; the sequences a default draws from and the functions it calls, from
 * {@code pg_depend}; identity columns' sequences), unique and exclusion indexes from {@code pg_index},
 * foreign keys from {@code pg_constraint}, triggers from {@code pg_trigger} and rules from {@code
 * pg_class.relhasrules}.
 */
final class PostgresKeyReader implements KeyReader {
    /** collisdeterministic and attgenerated appeared in PostgreSQL 12. */
    static final int OLDEST = 12;

    private static final int NULLS_NOT_DISTINCT = 15;

    private static final String COLUMNS = """
      SELECT c.relname, a.attname,
        CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END,
        CASE WHEN t.typtype = 'd' THEN t.typtypmod ELSE a.atttypmod END,
        a.attidentity <> '' OR a.attgenerated <> '', a.attidentity <> '',
        d.oid IS NOT NULL, t.typtype = 'd' AND t.typdefault IS NOT NULL,
        coalesce(pg_get_expr(d.adbin, d.adrelid) ~ '^nextval\\(''[^'']+''::regclass\\)$', false),
        (SELECT min(s.relname) FROM pg_depend p JOIN pg_class s ON s.oid = p.refobjid AND s.relkind = 'S'
          WHERE p.classid = 'pg_attrdef'::regclass AND p.objid = d.oid),
        (SELECT count(*) FROM pg_depend p JOIN pg_class s ON s.oid = p.refobjid AND s.relkind = 'S'
          WHERE p.classid = 'pg_attrdef'::regclass AND p.objid = d.oid),
        (SELECT min(s.relname) FROM pg_depend p JOIN pg_class s ON s.oid = p.objid AND s.relkind = 'S'
          WHERE p.classid = 'pg_class'::regclass AND p.refclassid = 'pg_class'::regclass AND p.refobjid = c.oid
          AND p.refobjsubid = a.attnum AND p.deptype = 'i'),
        EXISTS (SELECT 1 FROM pg_depend p WHERE p.classid = 'pg_attrdef'::regclass AND p.objid = d.oid
          AND p.refclassid = 'pg_proc'::regclass),
        coalesce(co.collisdeterministic, true),
        c.relhasrules OR EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND NOT g.tgisinternal
          AND g.tgenabled <> 'D'),
        c.relhassubclass OR c.relispartition OR EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid),
        coalesce(pg_get_expr(d.adbin, d.adrelid) = 'gen_random_uuid()', false)
      FROM pg_class c
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      JOIN pg_type t ON t.oid = a.atttypid
      LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
      LEFT JOIN pg_collation co ON co.oid = a.attcollation
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'""";
    private static final String UNIQUE_INDEXES = """
      SELECT c.relname, i.relname, x.indisprimary, x.indexprs IS NOT NULL OR x.indpred IS NOT NULL OR x.indisexclusion,
        ARRAY(SELECT a.attname FROM unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
          WHERE k.n <= x.indnkeyatts ORDER BY k.n),
        %s
      FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
      WHERE (x.indisunique OR x.indisexclusion) AND c.relnamespace = current_schema()::regnamespace""";
    private static final String FOREIGN_KEYS = """
      SELECT ch.relname, pa.relname, con.confdeltype, con.confupdtype,
        ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.n),
        ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.n)
      FROM pg_constraint con JOIN pg_class ch ON ch.oid = con.conrelid JOIN pg_class pa ON pa.oid = con.confrelid
      WHERE con.contype = 'f' AND (ch.relnamespace = current_schema()::regnamespace
        OR pa.relnamespace = current_schema()::regnamespace)""";

    private static final int INT2 = 21;
    private static final int INT4 = 23;
    private static final int INT8 = 20;
    private static final int NUMERIC = 1700;
    private static final int TEXT = 25;
    private static final int VARCHAR = 1043;
    private static final int BPCHAR = 1042;
    private static final int UUID = 2950;

    @Override
    public Snapshot read(Connection c, Collection<String> tables) throws SQLException {
        Map<String, TableKeysBuilder> found = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(COLUMNS + only("c", tables) + " ORDER BY c.relname, a.attnum")) {
            bind(c, ps, tables, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getBoolean(16)) {
                        continue; // inheritance or partitioning: its rows are also written under other names
                    }
                    TableKeysBuilder b = found.computeIfAbsent(rs.getString(1), TableKeysBuilder::new);
                    b.triggers = rs.getBoolean(15);
                    b.columns.add(column(rs));
                }
            }
        }
        boolean nullsNotDistinct = c.getMetaData().getDatabaseMajorVersion() >= NULLS_NOT_DISTINCT;
        String unique = UNIQUE_INDEXES.formatted(nullsNotDistinct ? "x.indnullsnotdistinct" : "false");
        try (PreparedStatement ps = c.prepareStatement(
                unique + only("c", tables) + " ORDER BY c.relname, x.indisprimary DESC, i.relname")) {
            bind(c, ps, tables, 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TableKeysBuilder b = found.get(rs.getString(1));
                    if (b != null) {
                        List<String> columns = rs.getBoolean(4) ? null : names(rs.getArray(5));
                        b.unique.add(new UniqueIndex(rs.getString(2), columns, rs.getBoolean(3), !rs.getBoolean(6)));
                    }
                }
            }
        }
        String fkFilter = tables == null ? "" : " AND (ch.relname = ANY (?) OR pa.relname = ANY (?))";
        try (PreparedStatement ps = c.prepareStatement(FOREIGN_KEYS + fkFilter + " ORDER BY con.conname")) {
            bind(c, ps, tables, 2);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ForeignKey fk = new ForeignKey(
                            rs.getString(1),
                            names(rs.getArray(5)),
                            rs.getString(2),
                            names(rs.getArray(6)),
                            action(rs.getString(3)),
                            action(rs.getString(4)));
                    TableKeysBuilder.add(found, fk);
                }
            }
        }
        Map<String, TableKeys> out = new LinkedHashMap<>();
        found.forEach((name, b) -> out.put(name, b.build(false)));
        return new Snapshot(currentSchema(c), out);
    }

    private static KeyColumn column(ResultSet rs) throws SQLException {
        String name = rs.getString(2);
        int type = rs.getInt(3);
        int typmod = rs.getInt(4);
        boolean deterministic = rs.getBoolean(14);
        ValueType valueType = switch (type) {
            case INT2, INT4, INT8 -> ValueType.INTEGER;
            case NUMERIC -> ValueType.NUMERIC;
            case TEXT, VARCHAR -> deterministic ? ValueType.TEXT : ValueType.OTHER;
            case BPCHAR -> deterministic ? ValueType.PADDED_TEXT : ValueType.OTHER;
            case UUID -> ValueType.UUID;
            default -> ValueType.OTHER;
        };
        int scale = type == NUMERIC && typmod >= 0 ? (typmod - 4) & 0xffff : -1;
        boolean computed = rs.getBoolean(5); // identity or generated
        boolean identity = rs.getBoolean(6);
        boolean hasDefault = rs.getBoolean(7);
        boolean domainDefault = rs.getBoolean(8);
        boolean plainNextval = rs.getBoolean(9);
        String defaultSequence = rs.getString(10);
        int defaultSequences = rs.getInt(11);
        String identitySequence = rs.getString(12);
        boolean callsFunction = rs.getBoolean(13);
        if (identity) {
            return new KeyColumn(name, valueType, scale, Omitted.FRESH, identitySequence, false);
        }
        if (computed) {
            return new KeyColumn(
                    name, valueType, scale, Omitted.OTHER, null, false); // generated from the row's other columns
        }
        if (!hasDefault) {
            return new KeyColumn(name, valueType, scale, domainDefault ? Omitted.OTHER : Omitted.NULL, null, false);
        }
        if (rs.getBoolean(17)) {
            // A random UUID, computed once by the controller for every backend: no other row has it (a
            // collision is a 2^-122 chance), so an insert relying on it names a row no one else can name.
            return new KeyColumn(name, valueType, scale, Omitted.FRESH, null, false);
        }
        if (callsFunction || defaultSequences > 1) {
            return new KeyColumn(name, valueType, scale, Omitted.OPAQUE, null, false);
        }
        Omitted omitted = plainNextval && defaultSequences == 1 ? Omitted.FRESH : Omitted.OTHER;
        return new KeyColumn(name, valueType, scale, omitted, defaultSequence, false);
    }

    private static Action action(String code) {
        return switch (code) {
            case "r" -> Action.RESTRICT;
            case "c" -> Action.CASCADE;
            case "n" -> Action.SET_NULL;
            case "d" -> Action.SET_DEFAULT;
            default -> Action.NO_ACTION;
        };
    }

    private static List<String> names(Array array) throws SQLException {
        List<String> out = new ArrayList<>();
        for (Object o : (Object[]) array.getArray()) {
            out.add((String) o);
        }
        return out;
    }

    private static String only(String alias, Collection<String> tables) {
        return tables == null ? "" : " AND " + alias + ".relname = ANY (?)";
    }

    private static void bind(Connection c, PreparedStatement ps, Collection<String> tables, int times)
            throws SQLException {
        if (tables != null) {
            Array names = c.createArrayOf("text", tables.toArray());
            for (int i = 1; i <= times; i++) {
                ps.setArray(i, names);
            }
        }
    }

    private static String currentSchema(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT current_schema()")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
