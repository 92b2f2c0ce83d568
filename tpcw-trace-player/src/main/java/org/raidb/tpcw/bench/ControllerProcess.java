package org.raidb.tpcw.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A {@code raidb controller --config FILE} process over some backends. Port 0 in the configuration:
 * the controller picks a free port and says which in its "listening on HOST:PORT" line.
 */
final class ControllerProcess implements AutoCloseable {

    static final String USER = "bench";
    static final String PASSWORD = "bench";
    private static final Pattern LISTENING = Pattern.compile("listening on [^ ]+:(\\d+)");
    private static final Pattern ADMIN_LISTENING = Pattern.compile("admin API listening on (http://[^ ]+:\\d+)/api");
    private static final String ADMIN = "admin";
    private static final String ADMIN_PASSWORD = "admin";
    /** Issue 15: the recovery log at most this many times the SQL text and parameters it records. */
    private static final double LOG_SIZE_TARGET = 3.0;

    private final Process process;
    private final int port;
    /** The admin API's address, once the controller has said it ("admin API listening on ..."). */
    private final CompletableFuture<String> adminBase;

    private final Path dataDir;

    private ControllerProcess(Process process, int port, CompletableFuture<String> adminBase, Path dataDir) {
        this.process = process;
        this.port = port;
        this.adminBase = adminBase;
        this.dataDir = dataDir;
    }

    /**
     * {@code placement}: element i the tables of backend i (static placement, or read from the schemas
     * when a backend holds none), or null for RAIDb-1.
     */
    static ControllerProcess start(
            RaidbHome home,
            List<BackendServer> backends,
            String database,
            BenchConfig bench,
            List<Set<String>> placement,
            Path workDir)
            throws Exception {
        Path config = workDir.resolve("raidb-" + bench.cliName + "-" + backends.size() + ".xml");
        // A data directory per run: its recovery log then holds this run's entries only, as the backends (recreated
        // from the template) hold this run's writes only, and its size is this run's.
        Path dataDir = Files.createTempDirectory(workDir, "controller-data-");
        Files.writeString(config, configuration(backends, database, bench, placement, dataDir));
        Path log = workDir.resolve(config.getFileName().toString().replace(".xml", ".log"));
        Process process = new ProcessBuilder(home.raidbCommand(List.of("controller", "--config", config.toString())))
                .redirectErrorStream(true)
                .start();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        CompletableFuture<String> admin = new CompletableFuture<>();
        Thread pump = new Thread(() -> copyLogFindingPorts(process, log, port, admin), "controller-log");
        pump.setDaemon(true);
        pump.start();
        try {
            return new ControllerProcess(process, port.get(2, TimeUnit.MINUTES), admin, dataDir);
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("the controller did not start; see " + log, e);
        }
    }

    private static void copyLogFindingPorts(
            Process process, Path log, CompletableFuture<Integer> port, CompletableFuture<String> admin) {
        try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                var out = Files.newBufferedWriter(log)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.newLine();
                out.flush();
                Matcher a = ADMIN_LISTENING.matcher(line);
                Matcher m = LISTENING.matcher(line);
                if (!admin.isDone() && a.find()) {
                    admin.complete(a.group(1));
                } else if (!port.isDone() && m.find()) {
                    port.complete(Integer.parseInt(m.group(1)));
                }
            }
        } catch (IOException e) {
            port.completeExceptionally(e);
            admin.completeExceptionally(e);
        }
        port.completeExceptionally(new IllegalStateException("controller exited"));
        admin.completeExceptionally(new IllegalStateException("controller exited"));
    }

    static String configuration(
            List<BackendServer> backends,
            String database,
            BenchConfig bench,
            List<Set<String>> placement,
            Path dataDir) {
        StringBuilder x = new StringBuilder("<raidb>\n");
        x.append("  <controller host=\"127.0.0.1\" port=\"0\" adminPort=\"0\" dataDir=\"")
                .append(dataDir)
                .append("\"/>\n");
        x.append("  <virtualDatabase name=\"").append(database).append("\">\n");
        // A static placement must give every backend its tables; one holding none (RAIDb-0 beyond the
        // paper's two groups of tables) cannot be written so: the controller then reads every backend's
        // tables from its schema, which the harness cut down to the placement beforehand.
        boolean listTables = placement != null && placement.stream().noneMatch(Set::isEmpty);
        x.append("    <authentication>\n      <admin user=\"")
                .append(ADMIN)
                .append("\" password=\"")
                .append(ADMIN_PASSWORD)
                .append("\"/>\n");
        x.append("      <virtualUser name=\"")
                .append(USER)
                .append("\" password=\"")
                .append(PASSWORD)
                .append("\"/>\n");
        x.append("    </authentication>\n");
        for (int i = 0; i < backends.size(); i++) {
            BackendServer b = backends.get(i);
            // poolSize: at least one connection per player session, so that the pool is never what limits.
            x.append("    <backend name=\"")
                    .append(b.name())
                    .append("\" url=\"")
                    .append(b.url(database))
                    .append("\" user=\"")
                    .append(b.user())
                    .append("\" password=\"")
                    .append(b.password())
                    .append("\" poolSize=\"150\"");
            if (!listTables) {
                x.append("/>\n");
            } else {
                x.append(">\n");
                new TreeSet<>(placement.get(i))
                        .forEach(t -> x.append("      <table name=\"").append(t).append("\"/>\n"));
                x.append("    </backend>\n");
            }
        }
        // No <scheduler>: the controller's default. The player re-runs deadlock victims (40001/40P01),
        // and the final state does not depend on which transaction won (docs/tpcw.md, "Replaying through RAIDb").
        if (bench.resultCache != null) {
            x.append("    ").append(bench.resultCache).append('\n');
        }
        switch (bench.level) {
            case "raidb1" ->
                x.append("    <raidb1 readPolicy=\"").append(bench.readPolicy).append("\" completion=\"all\"/>\n");
            // Best Sellers' temporary table (--best-sellers temp-table) goes to 2 of the backends holding
            // orders, as in the paper (section 7.5.4); the default sub-query variant creates none.
            case "raidb2" ->
                x.append("    <raidb2 readPolicy=\"")
                        .append(bench.readPolicy)
                        .append("\" completion=\"all\">\n")
                        .append(
                                "      <createTable policy=\"roundRobin\" nodes=\"2\" tables=\"best_sellers_*\"/>\n    </raidb2>\n");
            case "raidb0" -> x.append("    <raidb0/>\n");
            default -> throw new IllegalArgumentException("no controller for " + bench.cliName);
        }
        x.append("  </virtualDatabase>\n</raidb>\n");
        return x.toString();
    }

    String url(String database) {
        return "jdbc:raidb://127.0.0.1:" + port + "/" + database;
    }

    /**
     * The recovery log's size against what it recorded since the controller started (the admin API's {@code
     * storeBytes} over {@code recordedBytes}): on this run's fresh data directory, the whole log's. A line for the
     * output; a log that cannot be read is said so, not fatal to the run.
     */
    String recoveryLogSize(String database) {
        return adminRead("/api/virtualdatabases/" + URLEncoder.encode(database, StandardCharsets.UTF_8), body -> {
            JsonNode log = body.path("recoveryLog");
            if (log.isMissingNode() || log.isNull()) {
                return "none (the virtual database runs without a recovery log)";
            }
            long recorded = log.path("recordedBytes").asLong();
            if (!log.path("storeBytes").isNumber() || recorded <= 0) {
                return "size unknown (store bytes " + log.path("storeBytes") + ", recorded bytes " + recorded + ")";
            }
            long store = log.path("storeBytes").asLong();
            return String.format(
                    Locale.ROOT,
                    "%,d store bytes for %,d bytes of SQL text and parameters recorded: %.2fx (target at most %.0fx)",
                    store,
                    recorded,
                    (double) store / recorded,
                    LOG_SIZE_TARGET);
        });
    }

    /**
     * The result cache's counts over the run (the admin API's {@code /cache}), or null when the configuration has no
     * cache: what a cached configuration's figure owes to hits, and what the cache could not keep.
     */
    String resultCacheFigures(String database) {
        return adminRead(
                "/api/virtualdatabases/" + URLEncoder.encode(database, StandardCharsets.UTF_8) + "/cache", body -> {
                    if (!body.path("enabled").asBoolean()) {
                        return null;
                    }
                    return String.format(
                            Locale.ROOT,
                            "%,d hits (%,d of them stale within a relaxed bound), %,d misses (hit ratio %.1f %%),"
                                    + " %,d bypassed, %,d invalidations, %,d evictions, %,d entries holding %,d bytes",
                            body.path("hits").asLong(),
                            body.path("staleHits").asLong(),
                            body.path("misses").asLong(),
                            100 * body.path("hitRatio").asDouble(),
                            body.path("bypassed").asLong(),
                            body.path("invalidations").asLong(),
                            body.path("evictions").asLong(),
                            body.path("entries").asLong(),
                            body.path("weightBytes").asLong());
                });
    }

    /** Reads one admin API resource as the admin and says what {@code reading} makes of it; failures become text. */
    private String adminRead(String path, Function<JsonNode, String> reading) {
        String base;
        try {
            base = adminBase.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "not read (interrupted)";
        } catch (ExecutionException | TimeoutException e) {
            return "not read (the controller did not print its admin API's address)";
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .header(
                        "Authorization",
                        "Basic "
                                + Base64.getEncoder()
                                        .encodeToString(
                                                (ADMIN + ":" + ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build();
        try {
            HttpResponse<String> response =
                    HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return "not read (admin API answered HTTP " + response.statusCode() + " for " + path + ")";
            }
            return reading.apply(new ObjectMapper().readTree(response.body()));
        } catch (IOException e) {
            return "not read (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "not read (interrupted)";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        deleteTree(dataDir);
    }

    /** The run's data directory: its log is of no use once the run is over, and may be large. */
    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // left behind in the work directory, which says where it is
        }
    }
}
