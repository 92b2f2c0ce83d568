package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the getters of a result set return for the common PostgreSQL types, through pgjdbc and
 * through the RAIDb driver, in one table: every difference is either fixed or listed in
 * {@link #KEPT_DIFFERENCES} with the reason (docs/jdbc-compatibility.md says the same).
 */
class ValueGettersParityIT {
    @RegisterExtension
    static final PgjdbcParity parity = PgjdbcParity.withSchema();

    /** A literal of each type, as {@code SELECT <literal>} sends it. */
    static final Map<String, String> SAMPLES = new LinkedHashMap<>();

    static {
        SAMPLES.put("int2", "12::int2");
        SAMPLES.put("int4", "-7::int4");
        SAMPLES.put("int8", "9000000000::int8");
        SAMPLES.put("numeric", "12.340::numeric");
        SAMPLES.put("float4", "1.5::float4");
        SAMPLES.put("float8", "-2.25::float8");
        SAMPLES.put("float8 integral", "7::float8");
        SAMPLES.put("float8 large", "1e20::float8");
        SAMPLES.put("float8 small", "0.000015::float8");
        SAMPLES.put("float4 large", "1234567::float4");
        SAMPLES.put("text", "'hello'::text");
        SAMPLES.put("varchar", "'hi'::varchar(10)");
        SAMPLES.put("char(n)", "'ab'::char(5)");
        SAMPLES.put("bytea", "'\\xdeadbeef'::bytea");
        SAMPLES.put("date", "'2024-02-29'::date");
        SAMPLES.put("time", "'13:14:15.5'::time");
        SAMPLES.put("timetz", "'13:14:15+02'::timetz");
        SAMPLES.put("timestamp", "'2024-02-29 13:14:15.123456'::timestamp");
        SAMPLES.put("timestamptz", "'2024-02-29 13:14:15+02'::timestamptz");
        SAMPLES.put("uuid", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid");
        SAMPLES.put("json", "'{\"a\": 1}'::json");
        SAMPLES.put("jsonb", "'{\"a\": 1}'::jsonb");
        SAMPLES.put("inet", "'192.168.0.1/24'::inet");
        SAMPLES.put("interval", "'1 year 2 mons 3 days 04:05:06.5'::interval");
        SAMPLES.put("boolean true", "true");
        SAMPLES.put("boolean false", "false");
        SAMPLES.put("bit(1)", "B'1'");
        SAMPLES.put("money", "1234.56::money");
        SAMPLES.put("xml", "'<a>b</a>'::xml");
        SAMPLES.put("int4[]", "'{1,2,NULL}'::int4[]");
        SAMPLES.put("text[]", "'{\"a b\",NULL,c,\"q\\\"uote\"}'::text[]");
        SAMPLES.put("int4[][]", "'{{1,2},{3,4}}'::int4[][]");
        SAMPLES.put("null int4", "NULL::int4");
    }

    static final List<String> GETTERS =
            List.of("getString", "getObject", "getTimestamp", "getDate", "getTime", "getBytes");

    /**
     * "sample getter" of every difference kept on purpose, with what RAIDb returns there
     * (docs/jdbc-compatibility.md gives the reasons).
     */
    static final Map<String, String> KEPT_DIFFERENCES = new TreeMap<>();

    static {
        // pgjdbc returns its PGobject, whose toString() is this text: the driver cannot depend on pgjdbc.
        KEPT_DIFFERENCES.put("inet getObject", "java.lang.String 192.168.0.1/24");
        KEPT_DIFFERENCES.put("json getObject", "java.lang.String {\"a\": 1}");
        KEPT_DIFFERENCES.put("jsonb getObject", "java.lang.String {\"a\": 1}");
        // pgjdbc returns its PGInterval: ours has the same getters and the same toString().
        KEPT_DIFFERENCES.put(
                "interval getObject", "org.raidb.driver.RaidbInterval 1 years 2 mons 3 days 4 hours 5 mins 6.5 secs");
        // pgjdbc returns its PgSQLXML, whose toString() is Object's: ours is an SQLXML whose toString() is the XML.
        KEPT_DIFFERENCES.put("xml getObject", "org.raidb.driver.RaidbSqlXml <a>b</a>");
        // pgjdbc calls money a double and fails to read its own text as one: RAIDb gives the text.
        KEPT_DIFFERENCES.put("money getObject", "java.lang.String $1,234.56");
    }

    @Test
    void gettersOfCommonTypesReturnWhatPgjdbcReturns() throws Exception {
        Map<String, String> differences = new TreeMap<>();
        Map<String, String> raidbSide = new TreeMap<>();
        for (Map.Entry<String, String> sample : SAMPLES.entrySet()) {
            for (String getter : GETTERS) {
                PgjdbcParity.JdbcCode<Object> code = c -> get(c, sample.getValue(), getter);
                Object expected = parity.throughPgjdbc(code);
                Object actual = parity.throughRaidb(code);
                // pgjdbc fails a few conversions with an unchecked exception (getDate on a number: an
                // ArrayIndexOutOfBoundsException); JDBC asks for an SQLException, which is what RAIDb throws.
                boolean bothRefuse = expected.toString().startsWith("threw java.lang.")
                        && actual.toString().startsWith("SQLException");
                if (!expected.equals(actual) && !bothRefuse) {
                    differences.put(sample.getKey() + " " + getter, "pgjdbc: " + expected + " | RAIDb: " + actual);
                    raidbSide.put(sample.getKey() + " " + getter, actual.toString());
                }
            }
        }
        assertThat(raidbSide).as("differences: %s", differences).isEqualTo(KEPT_DIFFERENCES);
    }

    /** NaN and the infinities of numeric: pgjdbc refuses them as BigDecimal only. */
    @Test
    void nanAndInfinityOfNumericReadAsPgjdbcReadsThem() throws Exception {
        for (String value : List.of("'NaN'::numeric", "'Infinity'::numeric", "'-Infinity'::numeric")) {
            for (String getter : List.of("getString", "getObject", "getDouble", "getBigDecimal", "getInt")) {
                parity.assertSame(value + " " + getter, c -> get(c, value, getter));
            }
        }
        // The row survives a NaN: the other columns of the same row and the next rows still read.
        parity.assertSame("rows around a NaN", c -> {
            List<String> out = new ArrayList<>();
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT v, n FROM (VALUES (1.5::numeric, 1), ('NaN', 2), (2.5, 3)) t(v, n) ORDER BY n")) {
                while (rs.next()) {
                    out.add(rs.getString(1) + "/" + rs.getInt(2));
                }
            }
            return out;
        });
    }

    static Object get(Connection c, String literal, String getter) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT " + literal)) {
            assertThat(rs.next()).isTrue();
            return PgjdbcParity.Observed.of(() -> render(
                    switch (getter) {
                        case "getString" -> rs.getString(1);
                        case "getObject" -> rs.getObject(1);
                        case "getTimestamp" -> rs.getTimestamp(1);
                        case "getDate" -> rs.getDate(1);
                        case "getTime" -> rs.getTime(1);
                        case "getBytes" -> rs.getBytes(1);
                        case "getDouble" -> rs.getDouble(1);
                        case "getBigDecimal" -> rs.getBigDecimal(1);
                        case "getInt" -> rs.getInt(1);
                        default -> throw new IllegalArgumentException(getter);
                    }));
        }
    }

    /** A value as text that shows its Java class too, so that a String standing for a Double is a difference. */
    static String render(Object v) throws Exception {
        if (v == null) {
            return "null";
        }
        if (v instanceof byte[] b) {
            return "byte[] " + HexFormat.of().formatHex(b);
        }
        if (v instanceof Array a) {
            return "java.sql.Array " + a.getBaseTypeName() + " " + renderElements(a.getArray());
        }
        return v.getClass().getName() + " " + v;
    }

    static String renderElements(Object array) {
        if (!(array instanceof Object[] elements)) {
            return String.valueOf(array);
        }
        List<String> out = new ArrayList<>();
        for (Object e : elements) {
            out.add(
                    e instanceof Object[]
                            ? renderElements(e)
                            : e == null ? "null" : e.getClass().getSimpleName() + ":" + e);
        }
        return out.toString();
    }

    static String deep(Object[] a) {
        return Arrays.deepToString(a);
    }
}
