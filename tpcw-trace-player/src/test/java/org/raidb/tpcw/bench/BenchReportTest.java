package org.raidb.tpcw.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.tpcw.interactions.BestSellersVariant;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.schema.Scale;

/** The grid's files, written from made-up results and read back. */
class BenchReportTest {
    @TempDir
    Path dir;

    @Test
    void writesJsonCsvMarkdownAndOnePngPerMix() throws Exception {
        BenchSettings settings = new BenchSettings(
                List.of(Mix.BROWSING, Mix.ORDERING),
                List.of(BenchConfig.SINGLE, BenchConfig.RAIDB1_LPRF),
                List.of(1, 2),
                new Scale(1000, 10),
                150,
                Duration.ofSeconds(45),
                0.25,
                BestSellersVariant.SUBQUERY,
                1,
                dir.resolve("out"));
        List<BenchResult> results = List.of(
                new BenchResult("browsing", "single", 1, 21_722, 300.5, 16_016, 0, 0, 44.2, null),
                new BenchResult("browsing", "raidb1-lprf", 1, 18_117, 250.0, 16_016, 0, 0, 53.0, true),
                new BenchResult("browsing", "raidb1-lprf", 2, 38_161, 520.25, 16_016, 0, 0, 25.2, true),
                new BenchResult("ordering", "single", 1, 44_601, 700.0, 33_188, 0, 0, 44.6, null),
                new BenchResult("ordering", "raidb1-lprf", 2, 49_419, 800.0, 33_188, 1, 0, 40.3, false));

        String table = new BenchReport(settings, "applied: 0.25 CPU per backend", results).write();

        Path out = dir.resolve("out");
        assertThat(table).isEqualTo(Files.readString(out.resolve("results.md")));
        assertThat(table.lines())
                .containsExactly(
                        "| mix | configuration | 1 backend | 2 backends |",
                        "|---|---|---:|---:|",
                        "| browsing | single | 21,722 | — |",
                        "| browsing | raidb1-lprf | 18,117 | 38,161 |",
                        "| ordering | single | 44,601 | — |",
                        "| ordering | raidb1-lprf | — | 49,419 |");

        JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertThat(json.get("cpuCap").asText()).isEqualTo("applied: 0.25 CPU per backend");
        assertThat(json.get("items").asInt()).isEqualTo(1000);
        assertThat(json.get("sessions").asInt()).isEqualTo(150);
        assertThat(json.get("results")).hasSize(5);
        JsonNode second = json.get("results").get(2);
        assertThat(second.get("config").asText()).isEqualTo("raidb1-lprf");
        assertThat(second.get("backends").asInt()).isEqualTo(2);
        assertThat(second.get("requestsPerMinute").asDouble()).isEqualTo(38_161);
        assertThat(second.get("replicasIdentical").asBoolean()).isTrue();
        assertThat(json.get("results").get(0).get("replicasIdentical").isNull()).isTrue();

        List<String> csv = Files.readAllLines(out.resolve("results.csv"));
        assertThat(csv.get(0))
                .isEqualTo("mix,config,backends,requests_per_minute,transactions_per_second,statements,errors,"
                        + "elapsed_s,replicas_identical");
        assertThat(csv).hasSize(6);
        assertThat(csv.get(1)).isEqualTo("browsing,single,1,21722,300.5,16016,0,44.2,");
        assertThat(csv.get(5)).isEqualTo("ordering,raidb1-lprf,2,49419,800.0,33188,1,40.3,false");

        for (String mix : List.of("browsing", "ordering")) {
            BufferedImage png = ImageIO.read(out.resolve("tpcw-" + mix + ".png").toFile());
            assertThat(png).as(mix + " plot").isNotNull();
            assertThat(png.getWidth()).isEqualTo(800);
            assertThat(png.getHeight()).isEqualTo(500);
        }
    }
}
