package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** SQL arrays both ways: createArrayOf, setArray, setObject of a Java array, getArray and its result set. */
class ArrayParityIT {
    @RegisterExtension
    static final PgjdbcParity parity = PgjdbcParity.withSchema(
            "CREATE TABLE arrays (id int PRIMARY KEY, ints int4[], bigs int8[], texts text[], uuids uuid[], "
                    + "nums numeric[], flags bool[], grid int4[][])",
            "CREATE TABLE tags (id int PRIMARY KEY, name text)",
            "INSERT INTO tags VALUES (1, 'red'), (2, 'green'), (3, 'blue')");

    static final UUID U1 = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    static final UUID U2 = UUID.fromString("00000000-0000-0000-0000-000000000002");

    /** Every column of a row, each through getArray, getArray().getResultSet() and getString. */
    static List<String> readBack(Connection c, int id) throws Exception {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT ints, bigs, texts, uuids, nums, flags, grid FROM arrays WHERE id = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                for (int i = 1; i <= 7; i++) {
                    Array a = rs.getArray(i);
                    out.add(rs.getMetaData().getColumnTypeName(i) + " " + rs.getString(i) + " " + describe(a));
                }
            }
        }
        return out;
    }

    static String describe(Array a) throws Exception {
        if (a == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(a.getBaseTypeName())
                .append('/')
                .append(a.getBaseType())
                .append(' ');
        sb.append(ValueGettersParityIT.renderElements(a.getArray()));
        sb.append(" slice ").append(ValueGettersParityIT.renderElements(a.getArray(2, 1)));
        try (ResultSet rs = a.getResultSet()) {
            sb.append(" rows");
            while (rs.next()) {
                Object v = rs.getObject(2);
                sb.append(' ')
                        .append(rs.getInt(1))
                        .append('=')
                        .append(
                                v instanceof Array inner
                                        ? ValueGettersParityIT.renderElements(inner.getArray())
                                        : rs.getString(2));
            }
            sb.append(" labels ")
                    .append(rs.getMetaData().getColumnLabel(1))
                    .append(',')
                    .append(rs.getMetaData().getColumnLabel(2));
        }
        return sb.toString();
    }

    @Test
    void createArrayOfAndSetArrayWriteWhatGetArrayReads() throws Exception {
        Object read = parity.assertSame("arrays written with createArrayOf", c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO arrays VALUES (1, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setArray(1, c.createArrayOf("int4", new Integer[] {1, null, 3}));
                ps.setArray(2, c.createArrayOf("int8", new Long[] {9_000_000_000L, -1L}));
                ps.setArray(3, c.createArrayOf("text", new String[] {"a b", null, "q\"uote", "NULL", "{x,y}"}));
                ps.setArray(4, c.createArrayOf("uuid", new UUID[] {U1, U2}));
                ps.setArray(5, c.createArrayOf("numeric", new BigDecimal[] {new BigDecimal("1.50"), null}));
                ps.setArray(6, c.createArrayOf("bool", new Boolean[] {true, false, null}));
                ps.setArray(7, c.createArrayOf("int4", new Integer[][] {{1, 2}, {3, 4}}));
                ps.executeUpdate();
            }
            return readBack(c, 1);
        });
        assertThat(read.toString())
                .contains("Integer:1, null, Integer:3")
                .contains("[[Integer:1, Integer:2], [Integer:3, Integer:4]]");
    }

    @Test
    void javaArraysGivenToSetObjectAreSqlArrays() throws Exception {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("ints", new Integer[] {7, null});
        values.put("bigs", new long[] {1L, 2L});
        values.put("texts", new String[] {"x", "y z", null});
        values.put("uuids", new UUID[] {U2, U1});
        values.put("nums", new BigDecimal[] {BigDecimal.TEN, null});
        values.put("flags", new boolean[] {true, false});
        values.put("grid", new int[][] {{5, 6}, {7, 8}});
        int id = 100;
        for (Map.Entry<String, Object> v : values.entrySet()) {
            int row = id++;
            Object seen = parity.assertSame("setObject of a Java array into " + v.getKey(), c -> {
                try (PreparedStatement ps =
                        c.prepareStatement("INSERT INTO arrays (id, " + v.getKey() + ") VALUES (?, ?)")) {
                    ps.setInt(1, row);
                    ps.setObject(2, v.getValue());
                    ps.executeUpdate();
                }
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT " + v.getKey() + " FROM arrays WHERE id = " + row)) {
                    rs.next();
                    return rs.getString(1) + " " + describe(rs.getArray(1));
                }
            });
            assertThat(seen.toString()).as(v.getKey()).doesNotContain("SQLException");
        }
        Object refused = parity.assertSame("setObject of an array of an element class without an SQL type", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT ?")) {
                ps.setObject(1, new java.time.LocalDate[] {java.time.LocalDate.EPOCH});
                return "accepted";
            }
        });
        assertThat(refused.toString()).startsWith("SQLException");
    }

    @Test
    void anArrayParameterKeepsItsTypeWhereTheStatementDoesNotGiveOne() throws Exception {
        parity.assertSame("= ANY(?) with an array of ids", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT name FROM tags WHERE id = ANY(?) ORDER BY id")) {
                ps.setArray(1, c.createArrayOf("int4", new Object[] {1, 3}));
                List<String> names = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                }
                return names;
            }
        });
        parity.assertSame("SELECT ? of an array", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT ?")) {
                ps.setObject(1, new String[] {"a", null});
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getMetaData().getColumnTypeName(1) + " " + rs.getString(1) + " "
                            + describe(rs.getArray(1));
                }
            }
        });
    }

    @Test
    void aCreatedArrayDescribesItself() throws Exception {
        parity.assertSame("createArrayOf without a round trip", c -> {
            Array a = c.createArrayOf("varchar", new String[] {"a", "b,c", null});
            return a.getBaseTypeName() + " " + a.getBaseType() + " " + a + " "
                    + ValueGettersParityIT.renderElements(a.getArray());
        });
    }
}
