package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.controller.determinism.SqlDialect;

/** Texts split where PostgreSQL (pgjdbc) and MariaDB split them, and the names they write as calls. */
class StatementSplitterTest {

    private static List<String> statements(String sql, SqlDialect dialect) {
        return StatementSplitter.split(sql, dialect).stream()
                .map(p -> p.text(sql).strip())
                .toList();
    }

    private static List<String> postgres(String sql) {
        return statements(sql, SqlDialect.POSTGRESQL);
    }

    @Test
    void splitsAtSemicolonsInCode() {
        assertThat(postgres("SELECT 1; DROP TABLE victim")).containsExactly("SELECT 1", "DROP TABLE victim");
        assertThat(postgres("SELECT 1;;  ; INSERT INTO bs VALUES (-1,'x');  -- done\n"))
                .containsExactly("SELECT 1", "INSERT INTO bs VALUES (-1,'x')");
        assertThat(postgres("SELECT 1;")).containsExactly("SELECT 1");
        assertThat(postgres("/* only a comment */ -- and another")).isEmpty();
    }

    @Test
    void semicolonsInLiteralsQuotedNamesCommentsAndDollarQuotesDoNotSplit() {
        assertThat(postgres(
                        "SELECT 'a;b', \"c;d\", $$e;f$$, $tag$ g; $$ ;h $tag$ /* ; /* nested ; */ ; */ -- ;\n FROM t"))
                .hasSize(1);
        // E'' strings escape with a backslash; standard strings do not.
        assertThat(postgres("SELECT E'\\';' ; DELETE FROM t")).containsExactly("SELECT E'\\';'", "DELETE FROM t");
        assertThat(postgres("SELECT 'C:\\'; DELETE FROM t")).containsExactly("SELECT 'C:\\'", "DELETE FROM t");
        assertThat(postgres("SELECT a$b$c; SELECT $1"))
                .as("a $ inside a name opens no dollar quote")
                .containsExactly("SELECT a$b$c", "SELECT $1");
    }

    @Test
    void mariaDbLexesItsOwnWay() {
        assertThat(statements("SELECT 'C:\\'; DELETE FROM t'", SqlDialect.MARIADB))
                .as("backslash escapes")
                .hasSize(1);
        assertThat(statements("SELECT `a;b` # ; comment\n; DELETE FROM t", SqlDialect.MARIADB))
                .containsExactly("SELECT `a;b` # ; comment", "DELETE FROM t");
        assertThat(statements("SELECT 1 /*!; DELETE FROM t */", SqlDialect.MARIADB))
                .as("executable comments are code")
                .hasSize(2);
    }

    @Test
    void semicolonsInsideParenthesesDoNotSplitAsPgjdbcSendsThemWhole() {
        assertThat(postgres(
                        "CREATE RULE r AS ON INSERT TO t DO ALSO (INSERT INTO a VALUES (1); INSERT INTO b VALUES (2))"))
                .hasSize(1);
        assertThat(postgres("SELECT 1); DROP TABLE t"))
                .as("an unbalanced ')' still splits: more statements, not fewer")
                .hasSize(2);
    }

    @Test
    void bodiesWithSemicolonsRunToTheEndOfTheText() {
        List<TextPart> atomic = StatementSplitter.split(
                "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END; DROP TABLE t",
                SqlDialect.POSTGRESQL);
        assertThat(atomic).hasSize(1);
        assertThat(atomic.get(0).toEnd()).isTrue();
        List<TextPart> procedure = StatementSplitter.split(
                "CREATE PROCEDURE p() BEGIN INSERT INTO t VALUES (1); IF 1 THEN SELECT 1; END IF; END",
                SqlDialect.MARIADB);
        assertThat(procedure).hasSize(1);
        assertThat(procedure.get(0).toEnd()).isTrue();
        assertThat(StatementSplitter.split("BEGIN NOT ATOMIC INSERT INTO t VALUES (1); END", SqlDialect.MARIADB))
                .hasSize(1);
        assertThat(statements("BEGIN; INSERT INTO t VALUES (1); COMMIT", SqlDialect.MARIADB))
                .hasSize(3);
        assertThat(postgres("BEGIN; INSERT INTO t VALUES (1); COMMIT")).hasSize(3);
    }

    @Test
    void namesWrittenAsCallsAreNotedButNotColumnLists() {
        List<TextPart> parts = StatementSplitter.split(
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r), "
                        + "m(x) AS MATERIALIZED (SELECT 2) SELECT wf(n), s.g (1), \"Q\"(2), 'h(3)', sum(n) FILTER (WHERE n > 0) "
                        + "FROM r, f(1) AS t(a int), k(2) u(b) ORDER BY ob(n) LIMIT lim()",
                SqlDialect.POSTGRESQL);
        assertThat(parts).hasSize(1);
        assertThat(parts.get(0).calls()).containsExactlyInAnyOrder("wf", "g", "q", "sum", "f", "k", "ob", "lim");
    }

    @Test
    void aWithNameFollowedByAnythingButAQueryIsACall() {
        assertThat(StatementSplitter.split("SELECT 1, wf(2) AS x", SqlDialect.POSTGRESQL)
                        .get(0)
                        .calls())
                .contains("wf");
        assertThat(StatementSplitter.split("SELECT a FROM t WHERE b IN (1, wf(2))", SqlDialect.POSTGRESQL)
                        .get(0)
                        .calls())
                .contains("wf");
    }
}
