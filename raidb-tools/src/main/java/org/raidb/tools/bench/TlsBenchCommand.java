package org.raidb.tools.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code raidb bench tls}: what TLS on the driver port costs. Point SELECT by random key with N client threads
 * through plain pgjdbc, through a controller without TLS and through the same kind of controller with {@code <tls>}
 * (clients on {@code sslmode=verify-full}), in the same run, sides rotating round by round; the medians and the
 * TLS/plain throughput ratio against the target (at least 0.85).
 */
@Command(
        name = "tls",
        description = "Measure point SELECT throughput with N client threads through plain pgjdbc, RAIDb without TLS"
                + " and RAIDb with TLS (sslmode=verify-full), in the same run; print the figures and the TLS/plain ratio,"
                + " and record them in docs/benchmarks.md.")
public final class TlsBenchCommand implements Callable<Integer> {
    static final String SECTION = "## TLS on the driver port";
    static final String SECTION_INTRO =
            "`bin/raidb bench tls` starts one embedded PostgreSQL server and two in-process "
                    + "controllers over it, one plain and one with `<tls>` (a self-signed EC P-256 certificate; clients connect "
                    + "with `sslmode=verify-full`), and measures a point SELECT by random key on a reused PreparedStatement "
                    + "through plain pgjdbc, RAIDb and RAIDb over TLS, in the same run, sides rotating round by round; each "
                    + "figure is the median of the rounds. Target (issue 18): RAIDb over TLS at least 0.85x RAIDb's throughput "
                    + "at 16 clients. Client threads, controllers and PostgreSQL share the machine's cores.";
    static final double TARGET_RATIO = 0.85;

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    boolean help;

    @Option(names = "--threads", defaultValue = "16", description = "Client threads (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(
            names = "--duration",
            defaultValue = "10",
            paramLabel = "SECONDS",
            description = "Measured seconds per side and round (default ${DEFAULT-VALUE}).")
    int durationSeconds;

    @Option(
            names = "--warmup",
            defaultValue = "3",
            paramLabel = "SECONDS",
            description = "Unrecorded warm-up seconds before each measurement (default ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "Rounds, sides rotating; the median is reported (default ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--rows",
            defaultValue = "10000",
            description = "Rows in bench_accounts (default ${DEFAULT-VALUE}).")
    int rows;

    @Option(
            names = "--record",
            paramLabel = "FILE",
            description = "Markdown file the figures are appended to (default: docs/benchmarks.md of the repository).")
    Path recordFile;

    @Option(names = "--no-record", description = "Print the figures only.")
    boolean noRecord;

    @Override
    public Integer call() throws Exception {
        int maxThreads = BenchDatabase.backendPoolSize();
        if (durationSeconds < 1 || warmupSeconds < 0 || rounds < 1 || rows < 1 || threads < 1 || threads > maxThreads) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--duration, --rounds and --rows must be at least 1, --warmup at least 0, --threads between 1 and "
                            + maxThreads);
        }
        PrintWriter out = spec.commandLine().getOut();
        Instant start = Instant.now();
        Machine machine = Machine.current();
        String load = OverheadCommand.loadAverage();
        out.println("Machine: " + machine.describe() + (load.isEmpty() ? "" : "; load average " + load));
        List<Side> order = new ArrayList<>(List.of(Side.PGJDBC, Side.RAIDB, Side.RAIDB_TLS));
        Map<Side, List<Figures>> rounds = new EnumMap<>(Side.class);
        String postgres;
        try (BenchDatabase db =
                BenchDatabase.start(rows, 1, true, EnumSet.copyOf(order), Optional.empty(), threads + 2)) {
            postgres = db.postgresVersion();
            out.println("PostgreSQL " + postgres + "; " + threads + " client threads, point SELECT");
            for (Side side : order) {
                out.println("  " + side.title() + ": " + db.url(side));
            }
            out.flush();
            for (int round = 0; round < this.rounds; round++) {
                for (Side side : order) {
                    Measurement m = ClosedLoopRun.run(
                            () -> db.connect(side),
                            Workload.POINT_SELECT,
                            threads,
                            rows,
                            Duration.ofSeconds(warmupSeconds),
                            Duration.ofSeconds(durationSeconds),
                            db.postmasterPids(),
                            db.pgpoolPid(),
                            List.of());
                    rounds.computeIfAbsent(side, s -> new ArrayList<>()).add(m.figures());
                    out.printf(
                            Locale.ROOT,
                            "  round %d %-10s %,10.0f ops/s  p50 %.3f ms  p99 %.3f ms%n",
                            round + 1,
                            side.title(),
                            m.figures().opsPerSecond(),
                            m.figures().p50Millis(),
                            m.figures().p99Millis());
                    out.flush();
                }
                Collections.rotate(order, -1);
            }
        }
        Map<Side, Figures> median = new EnumMap<>(Side.class);
        rounds.forEach((side, f) -> median.put(side, Figures.medianOf(f)));
        String entry = entry(start, machine, load, postgres, median);
        out.println();
        out.print(entry);
        OverheadCommand.record(recordFile, noRecord, SECTION, SECTION_INTRO, entry, out);
        out.flush();
        return 0;
    }

    private String entry(Instant start, Machine machine, String load, String postgres, Map<Side, Figures> median) {
        double plain = median.get(Side.RAIDB).opsPerSecond();
        double tls = median.get(Side.RAIDB_TLS).opsPerSecond();
        double pgjdbc = median.get(Side.PGJDBC).opsPerSecond();
        double ratio = tls / plain;
        StringBuilder s = new StringBuilder();
        s.append(String.format(
                Locale.ROOT,
                "### %s: %d threads, %d s x %d rounds (warm-up %d s), %,d rows%n%n",
                start.toString().substring(0, 16).replace('T', ' '),
                threads,
                durationSeconds,
                rounds,
                warmupSeconds,
                rows));
        s.append("Machine: ")
                .append(machine.describe())
                .append(load.isEmpty() ? "" : "; load average " + load)
                .append("; PostgreSQL ")
                .append(postgres)
                .append(".\n\n");
        s.append("| side | ops/s | p50 ms | p99 ms | / pgjdbc |\n|---|---|---|---|---|\n");
        for (Side side : List.of(Side.PGJDBC, Side.RAIDB, Side.RAIDB_TLS)) {
            Figures f = median.get(side);
            s.append(String.format(
                    Locale.ROOT,
                    "| %s | %,.0f | %.3f | %.3f | %.2f |%n",
                    side.title(),
                    f.opsPerSecond(),
                    f.p50Millis(),
                    f.p99Millis(),
                    f.opsPerSecond() / pgjdbc));
        }
        s.append(String.format(
                Locale.ROOT,
                "%nRAIDb TLS / RAIDb: %.2fx throughput (target at least %.2fx): %s.%n",
                ratio,
                TARGET_RATIO,
                ratio >= TARGET_RATIO ? "met" : "NOT met"));
        return s.toString();
    }
}
