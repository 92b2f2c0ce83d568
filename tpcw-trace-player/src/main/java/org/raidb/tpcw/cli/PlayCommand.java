package org.raidb.tpcw.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.raidb.tpcw.play.Pace;
import org.raidb.tpcw.play.PlayResult;
import org.raidb.tpcw.play.RetryPolicy;
import org.raidb.tpcw.play.TracePlayer;
import org.raidb.tpcw.report.PlayReport;
import org.raidb.tpcw.trace.Trace;
import org.raidb.tpcw.trace.TraceReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tpcw play}: replays a trace with one thread per session and reports throughput and latencies. */
@Command(
        name = "play",
        mixinStandardHelpOptions = true,
        description =
                "Replay a trace through any JDBC URL, one thread per session, from the same populated starting state.")
final class PlayCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--trace", required = true, paramLabel = "FILE", description = "The trace to replay.")
    Path trace;

    @Option(
            names = "--sessions",
            description = "Player threads, at most the trace's sessions (default: the trace's sessions).")
    Integer sessions;

    @Option(
            names = "--pace",
            defaultValue = "max",
            converter = Converters.PaceConverter.class,
            description = "max (as fast as possible) or recorded (at the recorded offsets) (default ${DEFAULT-VALUE}).")
    Pace pace;

    @Option(
            names = "--max-retries",
            defaultValue = "" + RetryPolicy.DEFAULT_MAX_RETRIES,
            description =
                    "Re-runs of a transaction aborted with SQLState 40001 or 40P01 (deadlock victim, serialization"
                            + " failure), from its first statement after a short random wait; past them it counts as an error"
                            + " (default ${DEFAULT-VALUE}; 0: never retry).")
    int maxRetries;

    @Option(
            names = "--report",
            paramLabel = "PREFIX",
            description = "Write PREFIX.json and PREFIX.csv (default: the trace file's name with -play).")
    Path report;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (sessions != null && sessions < 1) {
            throw new ParameterException(spec.commandLine(), "--sessions must be at least 1, not " + sessions);
        }
        if (maxRetries < 0) {
            throw new ParameterException(spec.commandLine(), "--max-retries must be 0 or more, not " + maxRetries);
        }
        Trace loaded = TraceReader.read(trace);
        int threads = sessions == null ? loaded.sessions().size() : sessions;
        if (threads > loaded.sessions().size()) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--sessions " + threads + " but the trace has only "
                            + loaded.sessions().size() + " sessions");
        }
        PlayResult result = new TracePlayer(connection.factory(), pace, RetryPolicy.withMaxRetries(maxRetries))
                .play(loaded, threads, spec.commandLine().getErr());
        Path prefix = report != null ? report : Path.of(trace.toString().replaceFirst("\\.[^./]*$", "") + "-play");
        PlayReport.writeJson(result, Path.of(prefix + ".json"));
        PlayReport.writeCsv(result, Path.of(prefix + ".csv"));
        PrintWriter out = spec.commandLine().getOut();
        PlayReport.print(result, out);
        out.println("results: " + prefix + ".json, " + prefix + ".csv");
        out.flush();
        return result.errors() == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
