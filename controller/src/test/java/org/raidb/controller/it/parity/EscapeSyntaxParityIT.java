package org.raidb.controller.it.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;

/**
 * JDBC escapes ({fn}, {d}, {t}, {ts}, {escape}, {oj}) are translated as pgjdbc translates them, in
 * nativeSQL and when statements run, and left alone when escape processing is off.
 */
class EscapeSyntaxParityIT {
    @RegisterExtension
    static final PgjdbcParity parity = PgjdbcParity.withSchema(
            "CREATE TABLE people (id int PRIMARY KEY, name text)",
            "INSERT INTO people VALUES (1, 'ann'), (2, 'a_b'), (3, 'bob')",
            "CREATE TABLE stamped (id int PRIMARY KEY, at timestamptz)",
            "CREATE FUNCTION unknown_fn(a int, b int) RETURNS int LANGUAGE sql AS 'SELECT a + b'");

    static final List<String> TEXTS = List.of(
            "SELECT {fn ucase(name)}, {fn concat(name, 'x')} FROM people WHERE id = ?",
            "SELECT {d '2024-02-29'}, {t '13:14:15'}, {ts '2024-02-29 13:14:15.5'}",
            "SELECT {fn timestampadd(SQL_TSI_DAY, 3, {ts '2024-02-29 00:00:00'})}, {fn left('abcdef', 2)}, {fn locate('c', 'abcabc', 4)}",
            "SELECT name FROM people WHERE name LIKE 'a\\_%' {escape '\\'}",
            "SELECT p.name, q.name FROM {oj people p LEFT OUTER JOIN people q ON p.id = q.id + 1} ORDER BY 1",
            "SELECT {fn ifnull(NULL, 'dflt')}, {fn user()}, {fn database()} IS NOT NULL, {fn mod(7, 3)}, {FN UCASE('up')}",
            "SELECT '{fn ucase(x)}' AS quoted, \"{d\" FROM (SELECT 1 AS \"{d\") t -- {fn ucase(c)}",
            "SELECT {fn substring('abcdef', 2, 3)}, {fn length('ab  ')}, {fn unknown_fn(1, 2)} FROM people WHERE id = ? OR id = ??");

    @Test
    void nativeSqlTranslatesEscapes() throws Exception {
        for (String sql : TEXTS) {
            parity.assertSame("nativeSQL of " + sql, c -> c.nativeSQL(sql));
        }
        assertThat(parity.throughRaidb(c -> c.nativeSQL(TEXTS.get(0))))
                .asString()
                .contains("upper(name)");
    }

    @Test
    void statementsWithEscapesRunAsWithPgjdbc() throws Exception {
        for (String sql : TEXTS) {
            String plain = sql.replace("= ?", "= 1").replace("OR id = ??", "");
            parity.assertSame("Statement " + plain, c -> {
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery(plain)) {
                    return PgjdbcParity.rows(rs);
                }
            });
            if (sql.contains("= ?")) {
                String prepared = sql.replace("OR id = ??", "");
                parity.assertSame("PreparedStatement " + prepared, c -> {
                    try (PreparedStatement ps = c.prepareStatement(prepared)) {
                        ps.setInt(1, 1);
                        try (ResultSet rs = ps.executeQuery()) {
                            return PgjdbcParity.rows(rs);
                        }
                    }
                });
            }
        }
    }

    @Test
    void escapeProcessingOffSendsTheTextAsItIs() throws Exception {
        parity.assertSame("setEscapeProcessing(false)", c -> {
            try (Statement st = c.createStatement()) {
                st.setEscapeProcessing(false);
                return PgjdbcParity.Observed.of(() -> PgjdbcParity.rows(st.executeQuery("SELECT {fn ucase('a')}")));
            }
        });
        parity.assertSame("setEscapeProcessing(false), then batched", c -> {
            try (Statement st = c.createStatement()) {
                st.setEscapeProcessing(false);
                st.addBatch("INSERT INTO stamped VALUES (100, {ts '2024-01-01 00:00:00'})");
                return PgjdbcParity.Observed.of(st::executeBatch);
            }
        });
    }

    @Test
    void anEscapedNowInAWriteGetsOneValueOnEveryBackend() throws Exception {
        try (Connection c = parity.raidbConnection();
                Statement st = c.createStatement()) {
            for (int i = 1; i <= 5; i++) {
                st.executeUpdate("INSERT INTO stamped VALUES (" + i + ", {fn now()})");
            }
        }
        Map<String, Map<String, String>> sums =
                ControllerFixture.checksums(parity.cluster().cluster().servers());
        assertThat(sums.get("pg1")).containsKey("stamped");
        assertThat(sums.get("pg2").get("stamped")).isEqualTo(sums.get("pg1").get("stamped"));
    }
}
