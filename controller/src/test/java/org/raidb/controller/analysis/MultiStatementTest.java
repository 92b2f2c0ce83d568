package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.determinism.TextSpan;

/** A text of several statements is classified from all of them, never from the first alone. */
class MultiStatementTest {
    private final SqlAnalyzer analyzer = new SqlAnalyzer(List.of(SqlDialect.POSTGRESQL), false, name -> false);

    @Test
    void aWriteAnywhereMakesTheWholeTextAWrite() {
        AnalyzedStatement drop = analyzer.analyze("SELECT 1; DROP TABLE victim");
        assertThat(drop.kind()).isEqualTo(StatementKind.DDL);
        assertThat(drop.tablesWritten()).containsExactly("victim");
        assertThat(drop.schemaChange()).isEqualTo(SchemaChange.drop("victim", false));

        AnalyzedStatement insert = analyzer.analyze("SELECT * FROM a; INSERT INTO bs VALUES (-1,'x')");
        assertThat(insert.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(insert.tablesWritten()).containsExactly("bs");
        assertThat(insert.tablesRead()).containsExactly("a");
        assertThat(insert.touchesEverything()).isFalse();
    }

    @Test
    void readsStayReadsWithTheUnionOfTheirTables() {
        AnalyzedStatement reads = analyzer.analyze("SELECT * FROM a; SELECT * FROM b JOIN c ON true;");
        assertThat(reads.kind()).isEqualTo(StatementKind.READ);
        assertThat(reads.tablesRead()).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(analyzer.analyze("SELECT ';' FROM a -- ; DROP TABLE a").kind())
                .as("one statement")
                .isEqualTo(StatementKind.READ);
    }

    @Test
    void unknownAnywhereTouchesEverything() {
        AnalyzedStatement a = analyzer.analyze("SELECT 1; VACUUM FULL; SELECT 2");
        assertThat(a.kind().isWrite()).isTrue();
        assertThat(a.touchesEverything()).isTrue();
        assertThat(analyzer.analyze("SELECT 1; CREATE TABLE n (id int)").touchesEverything())
                .as("a text creating a table goes to every backend, as a batch does")
                .isTrue();
    }

    @Test
    void transactionControlAndSettingsInsideAreRefused() {
        for (String sql : List.of(
                "INSERT INTO t VALUES (1); COMMIT",
                "BEGIN; INSERT INTO t VALUES (1)",
                "SELECT 1; ROLLBACK",
                "SAVEPOINT a; SELECT 1",
                "SELECT 1; END")) {
            AnalyzedStatement a = analyzer.analyze(sql);
            assertThat(a.kind()).as(sql).isNotEqualTo(StatementKind.TRANSACTION_CONTROL);
            assertThat(a.refusal()).as(sql).isEqualTo(MultiStatement.TRANSACTION_CONTROL);
        }
        assertThat(analyzer.analyze("SET search_path TO x; DROP TABLE victim").refusal())
                .isEqualTo(MultiStatement.SETTING);
        assertThat(analyzer.analyze("COMMIT;").transactionCommand())
                .as("one statement and a semicolon")
                .isEqualTo(TransactionCommand.COMMIT);
    }

    @Test
    void theRefuseOptionRefusesEveryTextOfSeveralStatements() {
        SqlAnalyzer refusing = new SqlAnalyzer(List.of(SqlDialect.POSTGRESQL), true, name -> false);
        assertThat(refusing.analyze("SELECT 1; SELECT 2").refusal()).isEqualTo(SqlAnalyzer.REFUSED);
        assertThat(refusing.analyze("SELECT 1;").refusal()).isNull();
        assertThat(refusing.analyze("SELECT 'a;b'").refusal()).isNull();
    }

    @Test
    void textsTheBackendsSplitDifferentlyAreRefused() {
        SqlAnalyzer mixed = new SqlAnalyzer(List.of(SqlDialect.POSTGRESQL, SqlDialect.MARIADB), false, name -> false);
        assertThat(mixed.analyze("SELECT 'C:\\'; DELETE FROM t; SELECT '").refusal())
                .isEqualTo(SqlAnalyzer.AMBIGUOUS);
        assertThat(mixed.analyze("SELECT 1; DELETE FROM t").tablesWritten()).containsExactly("t");
    }

    @Test
    void onlyTheWritesAreRewrittenNotTheDdl() {
        String sql = "CREATE TABLE d (at timestamptz DEFAULT now()); INSERT INTO e VALUES (now()); SELECT now()";
        AnalyzedStatement a = analyzer.analyze(sql);
        assertThat(a.needsRewrite()).isTrue();
        int insert = sql.indexOf("INSERT");
        assertThat(a.rewriteSpans())
                .containsExactly(new TextSpan(sql.lastIndexOf(';', insert) + 1, sql.indexOf(';', insert)));
        assertThat(analyzer.analyze("SELECT now(); SELECT random()").needsRewrite())
                .isFalse();
    }

    @Test
    void aCallHoldsOneStatement() {
        assertThat(analyzer.analyzeCall("select * from f(?); DROP TABLE t").refusal())
                .isEqualTo(SqlAnalyzer.SEVERAL_IN_A_CALL);
        assertThat(analyzer.analyzeCall("select * from f(';')").refusal()).isNull();
    }

    @Test
    void functionDdlNamesItsFunctions() {
        assertThat(analyzer.analyze(
                                "CREATE OR REPLACE FUNCTION public.Audit(x int) RETURNS int AS $$ BEGIN RETURN 1; END $$"
                                        + " LANGUAGE plpgsql")
                        .routineChange())
                .isEqualTo(new RoutineChange(java.util.Set.of("audit"), false));
        assertThat(analyzer.analyze("SELECT 1; DROP FUNCTION IF EXISTS a(int), b; ALTER FUNCTION c() RENAME TO d")
                        .routineChange())
                .isEqualTo(new RoutineChange(java.util.Set.of("a", "b", "c", "d"), false));
        assertThat(analyzer.analyze("CREATE EXTENSION pgcrypto").routineChange())
                .isEqualTo(RoutineChange.EVERYTHING);
        assertThat(analyzer.analyze("DO $$ BEGIN PERFORM 1; END $$").routineChange())
                .isEqualTo(RoutineChange.EVERYTHING);
        assertThat(analyzer.analyze("CREATE TABLE function (id int)").routineChange())
                .isNull();
    }
}
