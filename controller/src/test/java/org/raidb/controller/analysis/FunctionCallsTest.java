package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.raidb.controller.determinism.SqlDialect;

/** A SELECT calling a function that may write is a write, wherever the call is written, at each execution. */
class FunctionCallsTest {
    /** The functions that may write, as a catalogue would say, changeable between executions. */
    private final Set<String> writers = new HashSet<>(Set.of("audit"));

    private final SqlAnalyzer analyzer = new SqlAnalyzer(
            List.of(SqlDialect.POSTGRESQL),
            false,
            name -> writers.contains(name) || !ReadOnlyFunctions.contains(name) && !name.startsWith("price"));

    private StatementKind kind(String sql) {
        return analyzer.analyze(sql).kind();
    }

    @Test
    void aCallOfAWriterAnywhereMakesAWriteOnEveryBackend() {
        AnalyzedStatement a = analyzer.analyze("SELECT audit() FROM items");
        assertThat(a.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(a.touchesEverything()).as("the function may write any table").isTrue();
        assertThat(a.tablesRead()).containsExactly("items");
        for (String sql : List.of(
                "SELECT * FROM audit()",
                "SELECT 1 WHERE audit() > 0",
                "SELECT (SELECT audit())",
                "WITH x AS (SELECT audit()) SELECT * FROM x",
                "SELECT a FROM t GROUP BY audit(a)",
                "SELECT a FROM t ORDER BY audit(a)",
                "SELECT a FROM t LIMIT audit()",
                "SELECT DISTINCT ON (audit(a)) a FROM t",
                "SELECT public.\"AUDIT\"()",
                "SELECT sum(a) OVER (PARTITION BY audit(a)) FROM t",
                "SELECT 1 UNION SELECT audit()",
                "VALUES (audit())")) {
            assertThat(kind(sql)).as(sql).isEqualTo(StatementKind.WRITE);
        }
    }

    @Test
    void readOnlyFunctionsKeywordsAndColumnListsKeepAReadOnOneBackend() {
        for (String sql : List.of(
                "SELECT price(3), lower(name), count(*) FROM items GROUP BY 2",
                "SELECT CAST(a AS numeric(10, 2)), a::varchar(3), EXTRACT(year FROM now()) FROM t",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r",
                "SELECT * FROM price_list(1) AS p(a int, b text)",
                "SELECT a FROM t WHERE a IN (SELECT b FROM u) AND EXISTS (SELECT 1)",
                "SELECT 'audit()' -- audit()\n FROM t",
                "SELECT nextval FROM t")) {
            assertThat(kind(sql)).as(sql).isEqualTo(StatementKind.READ);
        }
    }

    @Test
    void theAnswerFollowsTheCatalogueAtEachExecutionThoughTheTextIsCached() {
        assertThat(kind("SELECT price_turncoat(1)")).isEqualTo(StatementKind.READ);
        writers.add("price_turncoat");
        assertThat(kind("SELECT price_turncoat(1)")).isEqualTo(StatementKind.WRITE);
        writers.remove("price_turncoat");
        assertThat(kind("SELECT price_turncoat(1)")).isEqualTo(StatementKind.READ);
        assertThat(analyzer.cacheSize()).as("parsed once").isEqualTo(1);
    }

    @Test
    void nonDeterministicArgumentsOfAWritingCallAreRewritten() {
        assertThat(analyzer.analyze("SELECT audit(now())").needsRewrite()).isTrue();
        assertThat(analyzer.analyze("SELECT price(now())").needsRewrite())
                .as("a read")
                .isFalse();
        assertThat(analyzer.analyze("SELECT 1; SELECT audit(random())").needsRewrite())
                .isTrue();
    }
}
