package org.raidb.tpcw.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.play.ConnectionFactory;
import org.raidb.tpcw.play.Pace;
import org.raidb.tpcw.play.PlayResult;
import org.raidb.tpcw.play.TracePlayer;
import org.raidb.tpcw.populate.Populator;
import org.raidb.tpcw.report.PlayReport;
import org.raidb.tpcw.schema.TpcwSchema;
import org.raidb.tpcw.trace.Recorder;
import org.raidb.tpcw.trace.Trace;
import org.raidb.tpcw.trace.TraceReader;
import org.raidb.tpcw.verify.TableChecksums;

/**
 * The paper's experiment on one machine: embedded backends (one process), populated identically,
 * CPU-capped; per mix one trace recorded on a single backend; per configuration and number of
 * backends a fresh copy of the populated databases, a controller process when the configuration
 * has one, and the same trace replayed at full speed. The figure is the replay's SQL requests per
 * minute.
 */
public final class BenchHarness {

    private final BenchSettings settings;
    private final PrintWriter out;
    private final PrintWriter progress;

    public BenchHarness(BenchSettings settings, PrintWriter out, PrintWriter progress) {
        this.settings = settings;
        this.out = out;
        this.progress = progress;
    }

    /** Runs the grid; returns the results and the CPU cap status. */
    public BenchReport run() throws Exception {
        RaidbHome home = RaidbHome.locate();
        Path work = Files.createDirectories(settings.outDir().resolve("work"));
        home.controllerClasspath();
        say("starting %d embedded PostgreSQL backends", settings.maxBackends());
        List<BenchResult> results = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        CpuCap cap = null;
        try (BackendProcesses backends =
                BackendProcesses.start(home, settings.maxBackends(), TemplateDatabases.DATABASE, work)) {
            List<BackendServer> servers = backends.servers();
            populateAll(servers);
            cap = CpuCap.apply(settings.backendCpu(), servers);
            say("CPU cap %s", cap.status());
            for (Mix mix : settings.mixes()) {
                Trace trace = record(mix, servers.get(0), work);
                for (BenchConfig config : settings.configs()) {
                    for (int n : settings.backends()) {
                        if (config == BenchConfig.SINGLE && n != 1) {
                            continue; // one database without a controller: there is no "single on n backends"
                        }
                        List<Set<String>> placement;
                        try {
                            placement = config.placement(mix, n);
                        } catch (IllegalArgumentException undefined) {
                            // The paper gives no placement for this many backends: skip rather than invent one.
                            String reason = String.format(
                                    Locale.ROOT,
                                    "%s %s %d backend(s): skipped, no placement: %s",
                                    mix.cliName(),
                                    config.cliName,
                                    n,
                                    undefined.getMessage());
                            say("%s", reason);
                            skipped.add(reason);
                            continue;
                        }
                        results.add(play(home, mix, config, servers.subList(0, n), placement, trace, work));
                    }
                }
            }
        } finally {
            if (cap != null) {
                cap.close(); // after the backends have stopped: the groups are empty and can be removed
            }
        }
        return new BenchReport(settings, cap.status(), results, skipped);
    }

    private void populateAll(List<BackendServer> servers) throws Exception {
        long begin = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(servers.size());
        List<Future<Long>> done = new ArrayList<>();
        for (BackendServer server : servers) {
            done.add(pool.submit(() -> {
                Populator populator = new Populator(settings.scale(), settings.seed());
                try (Connection c = new ConnectionFactory(server.url(), server.user(), server.password()).open()) {
                    populator.populate(c);
                }
                TemplateDatabases.saveTemplate(server);
                return populator.rowsDone().get();
            }));
        }
        pool.shutdown();
        long rows = 0;
        for (Future<Long> f : done) {
            rows += f.get();
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        say(
                "populated %d backends identically (%,d items, %,d customers): %,d rows in %.0f s, %,.0f rows/s (uncapped)",
                servers.size(), settings.scale().items(), settings.scale().customers(), rows, seconds, rows / seconds);
    }

    private Trace record(Mix mix, BackendServer server, Path work) throws Exception {
        TemplateDatabases.reset(List.of(server));
        Path file = work.resolve(mix.cliName() + ".trace");
        say(
                "%s: recording %d sessions for %d s on %s",
                mix.cliName(), settings.sessions(), settings.recordDuration().toSeconds(), server.name());
        Recorder.Summary summary = new Recorder(
                        new ConnectionFactory(server.url(), server.user(), server.password()),
                        new Recorder.Settings(
                                mix,
                                settings.sessions(),
                                settings.recordDuration(),
                                0,
                                Duration.ZERO,
                                settings.seed(),
                                settings.bestSellers()))
                .record(file, progress);
        say(
                "%s: %,d interactions, %,d statements, errors %s",
                mix.cliName(), summary.interactions(), summary.statements(), summary.errors());
        return TraceReader.read(file);
    }

    private BenchResult play(
            RaidbHome home,
            Mix mix,
            BenchConfig config,
            List<BackendServer> servers,
            List<Set<String>> placement,
            Trace trace,
            Path work)
            throws Exception {
        TemplateDatabases.reset(servers);
        if (placement != null) {
            for (int i = 0; i < servers.size(); i++) {
                BackendServer server = servers.get(i);
                try (Connection c = new ConnectionFactory(server.url(), server.user(), server.password()).open()) {
                    TpcwSchema.keepOnly(c, placement.get(i));
                }
            }
        }
        PlayResult result;
        Boolean identical = null;
        String logSize = null;
        String cacheFigures = null;
        if (!config.hasController()) {
            BackendServer server = servers.get(0);
            result = new TracePlayer(new ConnectionFactory(server.url(), server.user(), server.password()), Pace.MAX)
                    .play(trace, settings.sessions(), progress);
        } else {
            try (ControllerProcess controller =
                    ControllerProcess.start(home, servers, TemplateDatabases.DATABASE, config, placement, work)) {
                ConnectionFactory raidb = new ConnectionFactory(
                        controller.url(TemplateDatabases.DATABASE), ControllerProcess.USER, ControllerProcess.PASSWORD);
                result = new TracePlayer(raidb, Pace.MAX).play(trace, settings.sessions(), progress);
                logSize = controller.recoveryLogSize(TemplateDatabases.DATABASE);
                cacheFigures = controller.resultCacheFigures(TemplateDatabases.DATABASE);
            }
            identical = replicasIdentical(mix, config, servers, placement);
        }
        PlayReport.writeJson(
                result, work.resolve(mix.cliName() + "-" + config.cliName + "-" + servers.size() + ".json"));
        say(
                "%s %s %d backend(s): %,.0f requests/min, %.1f tx/s, %d errors %s, %d retries %s",
                mix.cliName(),
                config.cliName,
                servers.size(),
                result.requestsPerMinute(),
                result.transactionsPerSecond(),
                result.errors(),
                result.errorsBySqlState().isEmpty() ? "" : result.errorsBySqlState(),
                result.retries(),
                result.retriesByInteraction().isEmpty() ? "" : result.retriesByInteraction());
        if (logSize != null) {
            say("%s %s %d backend(s): recovery log %s", mix.cliName(), config.cliName, servers.size(), logSize);
        }
        if (cacheFigures != null) {
            say("%s %s %d backend(s): result cache %s", mix.cliName(), config.cliName, servers.size(), cacheFigures);
        }
        return new BenchResult(
                mix.cliName(),
                config.cliName,
                servers.size(),
                result.requestsPerMinute(),
                result.transactionsPerSecond(),
                result.statements(),
                result.errors(),
                result.retries(),
                result.elapsedSeconds(),
                identical);
    }

    /**
     * After a replay through a controller: is every table identical, row for row, on all the backends
     * holding it (all of them under RAIDb-1, its holders under RAIDb-0/2)? A table with one copy has
     * nothing to compare with.
     */
    private boolean replicasIdentical(
            Mix mix, BenchConfig config, List<BackendServer> servers, List<Set<String>> placement) throws SQLException {
        List<Map<String, String>> sums = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            BackendServer server = servers.get(i);
            List<String> held = placement == null
                    ? TpcwSchema.TABLES
                    : TpcwSchema.TABLES.stream()
                            .filter(placement.get(i)::contains)
                            .toList();
            try (Connection c = new ConnectionFactory(server.url(), server.user(), server.password()).open()) {
                sums.add(TableChecksums.of(c, held));
            }
        }
        List<String> differing = new ArrayList<>();
        int compared = 0;
        for (String table : TpcwSchema.TABLES) {
            List<Map<String, String>> holders =
                    sums.stream().filter(s -> s.containsKey(table)).toList();
            if (holders.size() > 1) {
                compared++;
                if (!TableChecksums.differing(holders.stream()
                                .map(s -> Map.of(table, s.get(table)))
                                .toList())
                        .isEmpty()) {
                    differing.add(table);
                }
            }
        }
        say(
                "%s %s %d backend(s): replicas %s",
                mix.cliName(),
                config.cliName,
                servers.size(),
                !differing.isEmpty()
                        ? "DIFFER in " + differing
                        : compared == 0
                                ? "not compared (every table has a single copy)"
                                : "identical (per-table checksums across each table's holders, " + compared
                                        + " replicated tables)");
        return differing.isEmpty();
    }

    private void say(String format, Object... args) {
        out.printf(Locale.ROOT, "bench: " + format + "%n", args);
        out.flush();
    }
}
