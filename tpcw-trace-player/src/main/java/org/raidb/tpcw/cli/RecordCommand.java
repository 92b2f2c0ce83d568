package org.raidb.tpcw.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.raidb.tpcw.interactions.BestSellersVariant;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.trace.Recorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tpcw record}: emulated browsers against a populated database, everything they send written to a trace. */
@Command(
        name = "record",
        mixinStandardHelpOptions = true,
        description =
                "Run emulated browsers against a populated database and write every statement they send to a trace.")
final class RecordCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Option(
            names = "--mix",
            defaultValue = "shopping",
            converter = Converters.MixConverter.class,
            description = "browsing, shopping or ordering (default ${DEFAULT-VALUE}).")
    Mix mix;

    @Option(
            names = "--sessions",
            defaultValue = "150",
            description = "Emulated browsers, one connection each (default ${DEFAULT-VALUE}).")
    int sessions;

    @Option(
            names = "--duration",
            defaultValue = "10m",
            converter = Converters.DurationConverter.class,
            description = "How long to record: 90s, 10m, 1h (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(
            names = "--interactions",
            defaultValue = "0",
            description = "Stop each session after this many interactions (default 0: no limit, --duration decides).")
    long interactions;

    @Option(
            names = "--think-time",
            defaultValue = "0s",
            converter = Converters.DurationConverter.class,
            description =
                    "Mean pause between a browser's interactions (default ${DEFAULT-VALUE}: none; the specification uses 7s).")
    Duration thinkTime;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed of the browsers' choices (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--best-sellers",
            defaultValue = "subquery",
            converter = Converters.BestSellersConverter.class,
            description = "subquery, or temp-table as in the paper (default ${DEFAULT-VALUE}).")
    BestSellersVariant bestSellers;

    @Option(names = "--trace", required = true, paramLabel = "FILE", description = "The trace file to write.")
    Path trace;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (sessions < 1) {
            throw new ParameterException(spec.commandLine(), "--sessions must be at least 1, not " + sessions);
        }
        if (duration.isZero() || duration.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--duration must be positive");
        }
        if (interactions < 0) {
            throw new ParameterException(
                    spec.commandLine(), "--interactions must be 0 (no limit) or more, not " + interactions);
        }
        Recorder recorder = new Recorder(
                connection.factory(),
                new Recorder.Settings(mix, sessions, duration, interactions, thinkTime, seed, bestSellers));
        Recorder.Summary summary = recorder.record(trace, spec.commandLine().getErr());
        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                Locale.ROOT,
                "recorded %s: %,d interactions, %,d statements by %d sessions in %.1f s (%s mix); errors: %s%n",
                trace,
                summary.interactions(),
                summary.statements(),
                sessions,
                summary.elapsed().toMillis() / 1000.0,
                mix.cliName(),
                summary.errors().isEmpty() ? "none" : summary.errors());
        out.flush();
        return summary.errors().isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
