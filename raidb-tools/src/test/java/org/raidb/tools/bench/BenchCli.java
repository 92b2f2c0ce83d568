package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.raidb.tools.cli.RaidbCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/** Runs a {@code raidb} command line in this JVM as the benchmark ITs do: logs what it printed, checks it exited 0. */
final class BenchCli {
    private static final Logger log = LoggerFactory.getLogger(BenchCli.class);

    private BenchCli() {}

    /** How a command line ended: its exit code, and what it printed on each stream. */
    record Outcome(int exit, String out, String err) {}

    /** What the command printed on its standard output. */
    static String run(String... args) {
        Outcome outcome = execute(args);
        log.info("{} printed:\n{}", String.join(" ", args), outcome.out());
        assertThat(outcome.exit()).as("exit code; stderr: %s", outcome.err()).isZero();
        return outcome.out();
    }

    /** Runs the command line, whatever its exit code. */
    static Outcome execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli =
                new CommandLine(new RaidbCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new Outcome(exit, out.toString(), err.toString());
    }
}
