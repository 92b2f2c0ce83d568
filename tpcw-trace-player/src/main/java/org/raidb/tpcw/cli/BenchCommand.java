package org.raidb.tpcw.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.raidb.tpcw.bench.BenchConfig;
import org.raidb.tpcw.bench.BenchHarness;
import org.raidb.tpcw.bench.BenchReport;
import org.raidb.tpcw.bench.BenchSettings;
import org.raidb.tpcw.interactions.BestSellersVariant;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.schema.Scale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tpcw bench}: the paper's throughput-versus-backends experiment on embedded backends. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description =
                "Start embedded PostgreSQL backends, populate them identically, record one trace per mix, replay it"
                        + " through each configuration and number of backends, and tabulate and plot the peak throughput.")
final class BenchCommand implements Callable<Integer> {

    @Option(
            names = "--mix",
            defaultValue = "browsing,shopping,ordering",
            split = ",",
            converter = Converters.MixConverter.class,
            description = "Mixes, comma-separated (default ${DEFAULT-VALUE}).")
    List<Mix> mixes;

    @Option(
            names = "--configs",
            defaultValue = "single,raidb1-rr,raidb1-lprf",
            split = ",",
            description = "Configurations: single, raidb1-rr, raidb1-lprf, raidb1-lprf-cache (with the result cache),"
                    + " raidb1-lprf-cache-tpcw (the cache letting Best Sellers be 30 s old, as TPC-W allows), raidb0, raidb2-rr,"
                    + " raidb2-lprf (RAIDb-0/2 with the paper's"
                    + " placements; a backend count the paper gives none for is skipped) (default ${DEFAULT-VALUE}).")
    List<String> configs;

    @Option(
            names = "--backends",
            defaultValue = "1..4",
            description = "Backend counts: 1..6 or 1,2,4 (default ${DEFAULT-VALUE}).")
    String backends;

    @Option(names = "--items", defaultValue = "1000", description = "Items (default ${DEFAULT-VALUE}).")
    int items;

    @Option(
            names = "--ebs",
            defaultValue = "10",
            description = "Emulated browsers of the populated scale (default ${DEFAULT-VALUE}).")
    int ebs;

    @Option(
            names = "--sessions",
            defaultValue = "150",
            description = "Player sessions, as the paper's 150 (default ${DEFAULT-VALUE}).")
    int sessions;

    @Option(
            names = "--record-duration",
            defaultValue = "60s",
            converter = Converters.DurationConverter.class,
            description = "Recording per mix, on one capped backend (default ${DEFAULT-VALUE}).")
    Duration recordDuration;

    @Option(
            names = "--backend-cpu",
            defaultValue = "0.25",
            description = "CPUs per backend (cgroup quota; 0: uncapped) (default ${DEFAULT-VALUE}).")
    double backendCpu;

    @Option(
            names = "--best-sellers",
            defaultValue = "subquery",
            converter = Converters.BestSellersConverter.class,
            description = "subquery or temp-table (default ${DEFAULT-VALUE}).")
    BestSellersVariant bestSellers;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed of populate and recording (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--out",
            defaultValue = "bench-results",
            description = "Output directory (default ${DEFAULT-VALUE}).")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (sessions < 1) {
            throw new ParameterException(spec.commandLine(), "--sessions must be at least 1, not " + sessions);
        }
        List<BenchConfig> parsedConfigs = new ArrayList<>();
        Scale scale;
        try {
            for (String c : configs) {
                parsedConfigs.add(BenchConfig.parse(c));
            }
            scale = new Scale(items, ebs);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        BenchSettings settings = new BenchSettings(
                mixes,
                parsedConfigs,
                backendCounts(),
                scale,
                sessions,
                recordDuration,
                backendCpu,
                bestSellers,
                seed,
                out);
        PrintWriter stdout = spec.commandLine().getOut();
        BenchReport report =
                new BenchHarness(settings, stdout, spec.commandLine().getErr()).run();
        String table = report.write();
        stdout.println();
        stdout.println("SQL requests per minute (CPU cap " + report.cpuCap() + "):");
        stdout.println(table);
        stdout.println("results, table and plots in " + out);
        stdout.flush();
        return report.results().stream().anyMatch(r -> r.errors() > 0) ? ExitCodes.FAILURE : ExitCodes.OK;
    }

    private List<Integer> backendCounts() {
        List<Integer> counts = new ArrayList<>();
        try {
            if (backends.contains("..")) {
                String[] range = backends.split("\\.\\.", -1);
                for (int n = Integer.parseInt(range[0].trim()); n <= Integer.parseInt(range[1].trim()); n++) {
                    counts.add(n);
                }
            } else {
                for (String n : backends.split(",", -1)) {
                    counts.add(Integer.parseInt(n.trim()));
                }
            }
        } catch (RuntimeException e) {
            throw new ParameterException(
                    spec.commandLine(), "--backends takes a range like 1..4 or a list like 1,2,4, not " + backends);
        }
        if (counts.isEmpty() || counts.stream().anyMatch(n -> n < 1 || n > 16)) {
            throw new ParameterException(spec.commandLine(), "--backends must be between 1 and 16, not " + backends);
        }
        return counts;
    }
}
