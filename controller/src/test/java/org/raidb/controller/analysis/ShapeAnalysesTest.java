package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Statements sent with new literals each time are analysed by shape, parsed once: and every analysis
 * by shape is the one a parse of the text gives.
 */
class ShapeAnalysesTest {
    /** Templates with %d (any sign) and %s (a string's contents) for the literals. */
    private static final List<String> TEMPLATES = List.of(
            "UPDATE pgbench_accounts SET abalance = abalance + %d WHERE aid = %d;",
            "SELECT abalance FROM pgbench_accounts WHERE aid = %d;",
            "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (%d, %d, %d, %d, CURRENT_TIMESTAMP);",
            "INSERT INTO customer (id, name, note) VALUES (%d, '%s', '%s'), (%d, '%s', NULL)",
            "UPDATE customer SET name = '%s' WHERE id IN (%d, %d) AND region = '%s'",
            "DELETE FROM orders WHERE (id, line) = (%d, %d)",
            "SELECT * FROM accounts WHERE id = %d FOR UPDATE",
            "SELECT * FROM t WHERE name LIKE '%s' ORDER BY 1 LIMIT %d",
            "INSERT INTO t (id, seq) VALUES (%d, nextval('t_seq'))",
            "INSERT INTO t (id, v) VALUES (%d, - %d)",
            "UPDATE t SET v = %d WHERE id = %d LIMIT %d",
            "INSERT INTO t (a) VALUES (%d) ON CONFLICT (a) DO UPDATE SET a = %d");

    private final Random random = new Random(42);

    @Test
    void everyAnalysisByShapeIsTheAnalysisOfTheTextAndTheParsesStop() {
        SqlAnalyzer byShape = new SqlAnalyzer();
        for (int round = 0; round < 50; round++) {
            for (String template : TEMPLATES) {
                String sql = fill(template);
                AnalyzedStatement expected = new SqlAnalyzer().analyze(sql);
                assertThat(byShape.analyze(sql)).as(sql).isEqualTo(expected);
            }
        }
        long parses = byShape.parses();
        int texts = byShape.cacheSize();
        for (int round = 0; round < 20; round++) {
            byShape.analyze(fill(TEMPLATES.get(0)));
            byShape.analyze(fill(TEMPLATES.get(1)));
            byShape.analyze(fill(TEMPLATES.get(2)));
        }
        assertThat(byShape.parses())
                .as("pgbench's statements are analysed by shape")
                .isEqualTo(parses);
        assertThat(byShape.cacheSize()).as("nor kept text by text").isEqualTo(texts);
    }

    @Test
    void aShapeWhoseLiteralsTheParserReadsAsMoreThanValuesIsAnalysedTextByText() {
        SqlAnalyzer analyzer = new SqlAnalyzer();
        // "- 5" with a space: the shape reads "- ?", which is no plain value, where the text reads -5.
        for (int i = 1; i <= 5; i++) {
            AnalyzedStatement a = analyzer.analyze("INSERT INTO t (id, v) VALUES (" + i + ", - " + i + ")");
            TargetRows.Inserted rows = (TargetRows.Inserted) a.shape().target();
            assertThat(rows.rows().get(0).get(1)).isEqualTo(new SqlValue.Literal("-" + i, false));
        }
        long parses = analyzer.parses();
        analyzer.analyze("INSERT INTO t (id, v) VALUES (9, - 9)");
        assertThat(analyzer.parses()).isEqualTo(parses + 1);
    }

    @Test
    void literalValuesAreReadAsTheParserReadsThem() {
        assertThat(ShapeAnalyses.value("'O''Brien'")).isEqualTo(new SqlValue.Literal("O'Brien", true));
        assertThat(ShapeAnalyses.value("-12")).isEqualTo(new SqlValue.Literal("-12", false));
        assertThat(ShapeAnalyses.value("1.5e3")).isEqualTo(new SqlValue.Literal("1.5e3", false));
    }

    private String fill(String template) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '%' && i + 1 < template.length() && template.charAt(i + 1) == 'd') {
                out.append(random.nextInt(2_000_001) - 1_000_000);
                i++;
            } else if (c == '%' && i + 1 < template.length() && template.charAt(i + 1) == 's') {
                out.append(random.nextBoolean() ? "x" + random.nextInt(100) : "it''s " + random.nextInt(9));
                i++;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
