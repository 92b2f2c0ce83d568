package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.raidb.driver.sql.SqlSyntax;

class LiteralMaskTest {
    private static LiteralMask pg(String sql) {
        return LiteralMask.of(sql, SqlSyntax.POSTGRESQL);
    }

    @Test
    void pgbenchStatementsMaskTheirNumbersAndUnaryMinus() {
        LiteralMask update = pg("UPDATE pgbench_accounts SET abalance = abalance + -4711 WHERE aid = 12345;");
        assertThat(update.shape()).isEqualTo("UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?;");
        assertThat(update.literals()).containsExactly("-4711", "12345");
        LiteralMask insert = pg("INSERT INTO pgbench_history (tid, bid, aid, delta, mtime)"
                + " VALUES (3, 1, 99, -17, CURRENT_TIMESTAMP);");
        assertThat(insert.shape())
                .isEqualTo(
                        "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP);");
        assertThat(insert.literals()).containsExactly("3", "1", "99", "-17");
    }

    @Test
    void aBinaryMinusStaysInTheShape() {
        assertThat(pg("SELECT a-1, b - 2, (c)-3 FROM t WHERE x = 5 - -6").shape())
                .isEqualTo("SELECT a-?, b - ?, (c)-? FROM t WHERE x = ? - -?");
    }

    @Test
    void stringsAreMaskedAsValuesButNotAsTypedLiteralsCallArgumentsOrWithBackslashes() {
        LiteralMask m = pg("SELECT * FROM t WHERE name = 'O''Brien' AND d > DATE '2020-01-01'"
                + " AND s = nextval('seq') AND k IN ('a', 'b') AND e = E'x' AND z = 'a\\\\b'");
        assertThat(m.shape())
                .isEqualTo("SELECT * FROM t WHERE name = ? AND d > DATE '2020-01-01'"
                        + " AND s = nextval('seq') AND k IN (?, ?) AND e = E'x' AND z = 'a\\\\b'");
        assertThat(m.literals()).containsExactly("'O''Brien'", "'a'", "'b'");
    }

    @Test
    void textsWithParametersSeveralStatementsEscapesOrNoLiteralsAreNotMasked() {
        assertThat(pg("SELECT * FROM t WHERE id = ? AND v = 5")).isNull();
        assertThat(pg("SELECT * FROM t WHERE id = $1 AND v = 5")).isNull();
        assertThat(pg("UPDATE t SET v = 1; UPDATE t SET v = 2")).isNull();
        assertThat(pg("SELECT {fn ucase(name)} FROM t WHERE id = 5")).isNull();
        assertThat(pg("SELECT * FROM t")).isNull();
        assertThat(pg("CREATE TABLE t (id int DEFAULT 5)")).isNull();
        assertThat(pg("SET work_mem = 64")).isNull();
        assertThat(pg("")).isNull();
        assertThat(pg("-- only a comment 5")).isNull();
    }

    @Test
    void literalsInCommentsAndQuotedNamesStay() {
        LiteralMask m = pg("SELECT \"col 1\" /* id = 7 */ FROM t WHERE id = 8 -- 9");
        assertThat(m.shape()).isEqualTo("SELECT \"col 1\" /* id = 7 */ FROM t WHERE id = ? -- 9");
        assertThat(m.literals()).containsExactly("8");
    }

    @Test
    void mysqlNumbersThatAreNamesOrHexStayAndDoubleQuotedStringsStay() {
        LiteralMask m = LiteralMask.of("SELECT * FROM t WHERE a = 0x1F AND b = \"x\" AND c = 2", SqlSyntax.MYSQL);
        assertThat(m.shape()).isEqualTo("SELECT * FROM t WHERE a = 0x1F AND b = \"x\" AND c = ?");
    }
}
