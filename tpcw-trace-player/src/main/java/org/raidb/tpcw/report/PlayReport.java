package org.raidb.tpcw.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.raidb.tpcw.play.LatencySummary;
import org.raidb.tpcw.play.PlayResult;

/** A replay's results as JSON (everything), CSV (one row per latency group) and a summary on the console. */
public final class PlayReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PlayReport() {}

    public static void writeJson(PlayResult result, Path file) throws IOException {
        createParent(file);
        JSON.writeValue(file.toFile(), result);
    }

    public static PlayResult readJson(Path file) throws IOException {
        return JSON.readValue(file.toFile(), PlayResult.class);
    }

    /**
     * Columns: group (interaction or statement), name, count, p50_ms, p95_ms, p99_ms, mean_ms; a "total"
     * row first with the throughput, errors and retries; retries also on each interaction's row.
     */
    public static void writeCsv(PlayResult result, Path file) throws IOException {
        createParent(file);
        StringBuilder csv = new StringBuilder("group,name,count,p50_ms,p95_ms,p99_ms,mean_ms,requests_per_minute,"
                + "transactions_per_second,errors,retries\n");
        csv.append(String.format(
                Locale.ROOT,
                "total,all,%d,,,,,%.1f,%.2f,%d,%d%n",
                result.statements(),
                result.requestsPerMinute(),
                result.transactionsPerSecond(),
                result.errors(),
                result.retries()));
        rows(csv, "interaction", result.latencyByInteraction(), result.retriesByInteraction());
        rows(csv, "statement", result.latencyByStatementKind(), null);
        Files.writeString(file, csv);
    }

    /** {@code retries}: per name, or null for a group that has none (statement kinds). */
    private static void rows(
            StringBuilder csv, String group, Map<String, LatencySummary> summaries, Map<String, Long> retries) {
        summaries.forEach((name, s) -> csv.append(String.format(
                Locale.ROOT,
                "%s,%s,%d,%.3f,%.3f,%.3f,%.3f,,,,%s%n",
                group,
                name,
                s.count(),
                s.p50Ms(),
                s.p95Ms(),
                s.p99Ms(),
                s.meanMs(),
                retries == null ? "" : retries.getOrDefault(name, 0L))));
    }

    public static void print(PlayResult r, PrintWriter out) {
        out.printf(
                Locale.ROOT,
                "%,d statements in %.1f s by %d sessions: %,.0f SQL requests/min, %,.1f transactions/s%n",
                r.statements(),
                r.elapsedSeconds(),
                r.threads(),
                r.requestsPerMinute(),
                r.transactionsPerSecond());
        out.printf(
                Locale.ROOT,
                "errors: %d %s, transactions rolled back: %d, statements skipped: %d%n",
                r.errors(),
                r.errorsBySqlState().isEmpty() ? "" : r.errorsBySqlState().toString(),
                r.rolledBack(),
                r.skipped());
        out.printf(
                Locale.ROOT,
                "retries (40001/40P01, at most %d per transaction): %d %s, statements re-sent: %d%n",
                r.maxRetries(),
                r.retries(),
                r.retriesByInteraction().isEmpty()
                        ? ""
                        : r.retriesByInteraction().toString(),
                r.retriedStatements());
        out.printf(Locale.ROOT, "%-22s %9s %9s %9s %9s%n", "latency (ms)", "count", "p50", "p95", "p99");
        r.latencyByInteraction().forEach((name, s) -> line(out, name, s));
        r.latencyByStatementKind().forEach((name, s) -> line(out, name, s));
    }

    private static void line(PrintWriter out, String name, LatencySummary s) {
        out.printf(Locale.ROOT, "%-22s %9d %9.2f %9.2f %9.2f%n", name, s.count(), s.p50Ms(), s.p95Ms(), s.p99Ms());
    }

    static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }
}
