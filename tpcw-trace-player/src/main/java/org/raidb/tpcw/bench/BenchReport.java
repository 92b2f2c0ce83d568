package org.raidb.tpcw.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.report.ThroughputPlot;

/** The grid's results: JSON and CSV, a Markdown table, one PNG per mix. */
public record BenchReport(BenchSettings settings, String cpuCap, List<BenchResult> results, List<String> skipped) {

    public BenchReport(BenchSettings settings, String cpuCap, List<BenchResult> results) {
        this(settings, cpuCap, results, List.of());
    }

    /** Writes results.json, results.csv, results.md and throughput-MIX.png into the output directory; returns the table. */
    public String write() throws IOException {
        Path dir = Files.createDirectories(settings.outDir());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("date", LocalDate.now(ZoneId.systemDefault()).toString());
        json.put("cpus", Runtime.getRuntime().availableProcessors());
        json.put("cpuCap", cpuCap);
        json.put("items", settings.scale().items());
        json.put("ebs", settings.scale().ebs());
        json.put("sessions", settings.sessions());
        json.put("recordSeconds", settings.recordDuration().toSeconds());
        json.put("bestSellers", settings.bestSellers().cliName());
        json.put("results", results);
        json.put("skipped", skipped);
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("results.json").toFile(), json);

        StringBuilder csv =
                new StringBuilder("mix,config,backends,requests_per_minute,transactions_per_second,statements,errors,"
                        + "elapsed_s,replicas_identical\n");
        for (BenchResult r : results) {
            csv.append(String.format(
                    Locale.ROOT,
                    "%s,%s,%d,%.0f,%.1f,%d,%d,%.1f,%s%n",
                    r.mix(),
                    r.config(),
                    r.backends(),
                    r.requestsPerMinute(),
                    r.transactionsPerSecond(),
                    r.statements(),
                    r.errors(),
                    r.elapsedSeconds(),
                    r.replicasIdentical() == null ? "" : r.replicasIdentical()));
        }
        Files.writeString(dir.resolve("results.csv"), csv);

        String table = markdownTable();
        Files.writeString(dir.resolve("results.md"), table);
        for (Mix mix : settings.mixes()) {
            ThroughputPlot.write(
                    "TPC-W " + mix.cliName() + " mix (" + settings.sessions() + " sessions, backends capped: "
                            + (cpuCap.startsWith("applied") ? settings.backendCpu() + " CPU" : "no") + ")",
                    series(mix.cliName()),
                    settings.maxBackends(),
                    dir.resolve("tpcw-" + mix.cliName() + ".png"));
        }
        return table;
    }

    private Map<String, SortedMap<Integer, Double>> series(String mix) {
        Map<String, SortedMap<Integer, Double>> series = new LinkedHashMap<>();
        for (BenchResult r : results) {
            if (r.mix().equals(mix)) {
                series.computeIfAbsent(r.config(), c -> new TreeMap<>()).put(r.backends(), r.requestsPerMinute());
            }
        }
        return series;
    }

    /** One row per mix and configuration, one column per number of backends: SQL requests per minute. */
    String markdownTable() {
        StringBuilder t = new StringBuilder("| mix | configuration |");
        settings.backends().forEach(n -> t.append(' ').append(n).append(n == 1 ? " backend |" : " backends |"));
        t.append("\n|---|---|")
                .append("---:|".repeat(settings.backends().size()))
                .append('\n');
        for (Mix mix : settings.mixes()) {
            series(mix.cliName()).forEach((config, points) -> {
                t.append("| ")
                        .append(mix.cliName())
                        .append(" | ")
                        .append(config)
                        .append(" |");
                for (int n : settings.backends()) {
                    Double value = points.get(n);
                    t.append(' ')
                            .append(value == null ? "—" : String.format(Locale.ROOT, "%,.0f", value))
                            .append(" |");
                }
                t.append('\n');
            });
        }
        skipped.forEach(reason -> t.append("\n* ").append(reason));
        if (!skipped.isEmpty()) {
            t.append('\n');
        }
        return t.toString();
    }
}
