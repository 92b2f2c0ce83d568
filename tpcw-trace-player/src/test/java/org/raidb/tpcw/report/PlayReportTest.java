package org.raidb.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.tpcw.play.LatencySummary;
import org.raidb.tpcw.play.PlayResult;

/** A replay's JSON and CSV, written and read back. */
class PlayReportTest {
    @TempDir
    Path dir;

    private static PlayResult result() {
        Map<String, LatencySummary> byInteraction = new LinkedHashMap<>();
        byInteraction.put("Home", new LatencySummary(120, 0.5, 1.25, 2.0, 0.625));
        byInteraction.put("BuyConfirm", new LatencySummary(7, 3.0, 9.5, 12.125, 4.0));
        Map<String, LatencySummary> byKind = new LinkedHashMap<>();
        byKind.put("SELECT", new LatencySummary(300, 0.25, 1.0, 1.5, 0.375));
        byKind.put("INSERT", new LatencySummary(28, 0.75, 2.0, 3.0, 1.0));
        return new PlayResult(
                "jdbc:raidb://127.0.0.1:25322/tpcw",
                "max",
                12,
                12,
                330,
                2.5,
                328,
                2,
                150,
                1,
                3,
                Map.of("23505", 2L, "40001", 1L),
                7872.0,
                60.0,
                byInteraction,
                byKind,
                10,
                4,
                Map.of("BuyConfirm", 4L),
                9);
    }

    @Test
    void jsonReadsBackAsTheSameResult() throws Exception {
        Path json = dir.resolve("out/run.json");
        PlayReport.writeJson(result(), json);

        assertThat(PlayReport.readJson(json)).isEqualTo(result());
        assertThat(Files.readString(json))
                .contains("\"requestsPerMinute\" : 7872.0")
                .contains("\"BuyConfirm\"")
                .contains("\"retries\" : 4")
                .contains("\"retriedStatements\" : 9");
    }

    @Test
    void csvHasATotalRowThenOneRowPerInteractionAndStatementKind() throws Exception {
        Path csv = dir.resolve("run.csv");
        PlayReport.writeCsv(result(), csv);

        List<String[]> rows =
                Files.readAllLines(csv).stream().map(l -> l.split(",", -1)).toList();
        assertThat(rows.get(0))
                .containsExactly(
                        "group",
                        "name",
                        "count",
                        "p50_ms",
                        "p95_ms",
                        "p99_ms",
                        "mean_ms",
                        "requests_per_minute",
                        "transactions_per_second",
                        "errors",
                        "retries");
        assertThat(rows).hasSize(1 + 1 + 2 + 2).allSatisfy(r -> assertThat(r).hasSize(11));
        assertThat(rows.get(1)).containsExactly("total", "all", "328", "", "", "", "", "7872.0", "60.00", "3", "4");
        assertThat(rows.get(2))
                .containsExactly("interaction", "Home", "120", "0.500", "1.250", "2.000", "0.625", "", "", "", "0");
        assertThat(rows.get(3)[1]).isEqualTo("BuyConfirm");
        assertThat(Double.parseDouble(rows.get(3)[5])).isEqualTo(12.125);
        assertThat(rows.get(3)[10]).isEqualTo("4");
        assertThat(rows.get(4))
                .containsExactly("statement", "SELECT", "300", "0.250", "1.000", "1.500", "0.375", "", "", "", "");
        assertThat(rows.get(5)[0] + "/" + rows.get(5)[1] + "/" + rows.get(5)[2]).isEqualTo("statement/INSERT/28");
    }
}
