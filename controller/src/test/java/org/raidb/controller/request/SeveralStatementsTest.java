package org.raidb.controller.request;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.raidb.driver.sql.SqlSyntax;

/** Whether a text makes the backend return several results, which decides if a read may stream. */
class SeveralStatementsTest {
    private static boolean postgres(String sql) {
        return StatementRunner.severalStatements(sql, SqlSyntax.POSTGRESQL);
    }

    private static boolean mysql(String sql) {
        return StatementRunner.severalStatements(sql, SqlSyntax.MYSQL);
    }

    @Test
    void aSemicolonInCodeFollowedByMoreIsSeveral() {
        assertThat(postgres("SELECT 1")).isFalse();
        assertThat(postgres("SELECT 1;")).isFalse();
        assertThat(postgres("SELECT 1;  \n")).isFalse();
        assertThat(postgres("SELECT 1; SELECT 2")).isTrue();
        assertThat(postgres("SELECT ';' AS s, \";\" FROM t")).isFalse();
        assertThat(postgres("SELECT 1 -- ; not code\n")).isFalse();
        // pgjdbc sends a trailing comment as a statement of its own, answered as an empty query
        assertThat(postgres("SELECT 1; -- done")).isTrue();
    }

    /** The quote-and-dash scanner this replaced took a quote inside a comment or dollar quote for a string's start. */
    @Test
    void aQuoteInsideACommentOrDollarQuoteDoesNotHideTheNextStatement() {
        assertThat(postgres("SELECT 1 /* it's */; SELECT 2")).isTrue();
        assertThat(postgres("SELECT $$it's$$; SELECT 2")).isTrue();
        assertThat(postgres("SELECT $body$it's$body$; SELECT 2")).isTrue();
        assertThat(mysql("SELECT 1 # it's\n; SELECT 2")).isTrue();
    }

    /** ... and a semicolon inside a block comment, dollar quote or escaped quote for a statement's end. */
    @Test
    void aSemicolonInsideACommentDollarQuoteOrEscapedStringIsNoStatementEnd() {
        assertThat(postgres("SELECT 1 /* ; more */")).isFalse();
        assertThat(postgres("SELECT 1 /* outer /* inner */ ; still a comment */"))
                .isFalse();
        assertThat(postgres("SELECT $$a; b$$")).isFalse();
        assertThat(postgres("SELECT E'a\\'; b'")).isFalse();
        assertThat(postgres("SELECT 'it''s; x'")).isFalse();
        assertThat(postgres("SELECT \"a\"\"; b\" FROM t")).isFalse();
        assertThat(mysql("SELECT 'a\\'; b'")).isFalse();
        assertThat(mysql("SELECT `a; b` FROM t")).isFalse();
    }
}
