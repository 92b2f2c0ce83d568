package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.raidb.driver.sql.SqlSyntax;

/** Keywords count in code only: never in literals, quoted names or comments. */
class StatementWordsTest {
    private static final SqlSyntax PG = SqlSyntax.POSTGRESQL;
    private static final SqlSyntax MY = SqlSyntax.MYSQL;

    @Test
    void leadingWordsSkipCommentsAndParentheses() {
        assertThat(StatementWords.first(" /* c /* nested */ */ -- x\n ((select 1", PG, 2))
                .containsExactly("SELECT", "1");
        assertThat(StatementWords.first("rollback to savepoint s", PG, 3))
                .containsExactly("ROLLBACK", "TO", "SAVEPOINT");
        assertThat(StatementWords.first("begin; commit", PG, 3)).containsExactly("BEGIN", "", "");
        assertThat(StatementWords.first("# c\nBEGIN NOT ATOMIC", MY, 3)).containsExactly("BEGIN", "NOT", "ATOMIC");
        assertThat(StatementWords.first("", PG, 1)).containsExactly("");
    }

    @Test
    void savepointNames() {
        assertThat(StatementWords.nameAfter("RELEASE SAVEPOINT sp_1", PG, "SAVEPOINT"))
                .isEqualTo("sp_1");
        assertThat(StatementWords.nameAfter("SAVEPOINT \"a\"\"b\"", PG, "SAVEPOINT"))
                .isEqualTo("a\"b");
        assertThat(StatementWords.nameAfter("SAVEPOINT `x`", MY, "SAVEPOINT")).isEqualTo("x");
        assertThat(StatementWords.nameAfter("SAVEPOINT", PG, "SAVEPOINT")).isNull();
        assertThat(StatementWords.nameAfter("select 'savepoint x'", PG, "SAVEPOINT"))
                .isNull();
    }

    @Test
    void rowLocks() {
        assertThat(StatementWords.locksRows("SELECT * FROM t FOR UPDATE", PG)).isTrue();
        assertThat(StatementWords.locksRows("SELECT * FROM t for no key update of t", PG))
                .isTrue();
        assertThat(StatementWords.locksRows("SELECT * FROM t FOR /* c */ KEY SHARE", PG))
                .isTrue();
        assertThat(StatementWords.locksRows("SELECT * FROM t FOR SHARE NOWAIT", PG))
                .isTrue();
        assertThat(StatementWords.locksRows("SELECT 'for update' FROM t -- for update", PG))
                .isFalse();
        assertThat(StatementWords.locksRows("SELECT \"for update\", for_update FROM t", PG))
                .isFalse();
        assertThat(StatementWords.locksRows("SELECT 'it\\'s for update' FROM t", MY))
                .isFalse();
        assertThat(StatementWords.locksRows("SELECT 1 FOR", PG)).isFalse();
    }

    @Test
    void sequenceCalls() {
        assertThat(StatementWords.callsSequenceFunction("SELECT nextval('s')", PG))
                .isTrue();
        assertThat(StatementWords.callsSequenceFunction("SELECT pg_catalog.setval ('s', 1)", PG))
                .isTrue();
        assertThat(StatementWords.callsSequenceFunction("SELECT \"nextval\"('s')", PG))
                .isTrue();
        assertThat(StatementWords.callsSequenceFunction("SELECT NEXT VALUE FOR s", MY))
                .isTrue();
        assertThat(StatementWords.callsSequenceFunction("SELECT 'nextval(' , my_nextval(1), nextval FROM t", PG))
                .isFalse();
        assertThat(StatementWords.callsSequenceFunction("SELECT $$ nextval('s') $$ /* setval(1) */", PG))
                .isFalse();
        assertThat(StatementWords.callsSequenceFunction("SELECT next value", PG))
                .isFalse();
    }

    @Test
    void severalTables() {
        assertThat(StatementWords.namesSeveralTables("TRUNCATE a, b", PG)).isTrue();
        assertThat(StatementWords.namesSeveralTables("TRUNCATE \"a,b\" -- , c", PG))
                .isFalse();
    }

    @Test
    void abbreviatedLogLines() {
        assertThat(UnparsableLog.abbreviate("  select\n\t 1  ")).isEqualTo("select 1");
        assertThat(UnparsableLog.abbreviate("x".repeat(200))).isEqualTo("x".repeat(200));
        assertThat(UnparsableLog.abbreviate("x ".repeat(150)))
                .isEqualTo("x ".repeat(100).substring(0, 200) + "…");
    }
}
