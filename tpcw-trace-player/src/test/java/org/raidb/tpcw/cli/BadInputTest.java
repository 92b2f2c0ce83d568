package org.raidb.tpcw.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.tpcw.trace.TraceEvent;
import org.raidb.tpcw.trace.TraceWriter;
import picocli.CommandLine;

/** Bad input gives one line on stderr, a non-zero exit and no stack trace. */
class BadInputTest {

    /** Nothing listens on port 1 of the loopback: connection refused at once. */
    private static final String DEAD_POSTGRES = "jdbc:postgresql://127.0.0.1:1/tpcw";

    private static final String DEAD_RAIDB = "jdbc:raidb://127.0.0.1:1/tpcw";

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = TpcwCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static void assertOneLineError(Run run, String expected) {
        assertThat(run.exit()).isNotZero();
        List<String> lines = run.err().lines().toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0))
                .startsWith("tpcw: ")
                .contains(expected)
                .doesNotContain("Exception:")
                .doesNotContain("\tat ");
    }

    private Path validTrace() throws Exception {
        Path file = dir.resolve("ok.trace");
        try (TraceWriter w = new TraceWriter(file, Map.of("mix", "shopping"))) {
            w.write(TraceEvent.statement(0, 1, "SELECT 1"));
            w.write(TraceEvent.statement(5, 2, "SELECT 2"));
        }
        return file;
    }

    @Test
    void truncatedTraceNamesTheLine() throws Exception {
        Path file = validTrace();
        List<String> lines = Files.readAllLines(file);
        Files.write(file, lines.subList(0, lines.size() - 1));

        Run run = run("play", "--trace", file.toString(), "--url", DEAD_POSTGRES);

        assertOneLineError(run, file + ":" + (lines.size() - 1) + ": the trace is truncated");
        assertThat(run.exit()).isEqualTo(ExitCodes.FAILURE);
    }

    @Test
    void traceOfAnotherSchemaVersion() throws Exception {
        Path file = validTrace();
        Files.writeString(file, Files.readString(file).replaceFirst("schema=1", "schema=2"));

        assertOneLineError(
                run("play", "--trace", file.toString(), "--url", DEAD_POSTGRES),
                file + ":1: the trace was recorded" + " against TPC-W schema version 2");
    }

    @Test
    void missingTraceFile() {
        assertOneLineError(
                run("play", "--trace", dir.resolve("nope.trace").toString(), "--url", DEAD_POSTGRES),
                "no such trace file");
    }

    @Test
    void urlThatDoesNotAnswer() throws Exception {
        assertOneLineError(run("populate", "--url", DEAD_POSTGRES), "cannot connect to " + DEAD_POSTGRES);
        assertOneLineError(
                run("play", "--trace", validTrace().toString(), "--url", DEAD_RAIDB),
                "cannot connect to " + DEAD_RAIDB);
        assertOneLineError(
                run("record", "--trace", dir.resolve("r.trace").toString(), "--url", DEAD_POSTGRES, "--sessions", "2"),
                "cannot connect to " + DEAD_POSTGRES);
    }

    @Test
    void mixThatDoesNotExist() {
        Run run = run("record", "--mix", "buying", "--trace", "x.trace", "--url", DEAD_POSTGRES);

        assertOneLineError(run, "no mix 'buying': use one of browsing, shopping, ordering");
        assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void zeroOrNegativeSessions() throws Exception {
        assertOneLineError(
                run("record", "--sessions", "0", "--trace", "x.trace", "--url", DEAD_POSTGRES),
                "--sessions must be at least 1");
        assertOneLineError(
                run("record", "--sessions", "-3", "--trace", "x.trace", "--url", DEAD_POSTGRES),
                "--sessions must be at least 1");
        assertOneLineError(
                run("play", "--sessions", "0", "--trace", validTrace().toString(), "--url", DEAD_POSTGRES),
                "--sessions must be at least 1");
    }

    @Test
    void negativeMaxRetries() throws Exception {
        assertOneLineError(
                run("play", "--max-retries", "-1", "--trace", validTrace().toString(), "--url", DEAD_POSTGRES),
                "--max-retries must be 0 or more, not -1");
    }

    @Test
    void moreSessionsThanTheTraceHolds() throws Exception {
        assertOneLineError(
                run("play", "--sessions", "3", "--trace", validTrace().toString(), "--url", DEAD_POSTGRES),
                "the trace has only 2 sessions");
    }

    @Test
    void badScaleAndDuration() {
        assertOneLineError(run("populate", "--items", "0", "--url", DEAD_POSTGRES), "items must be at least 10");
        assertOneLineError(
                run("record", "--duration", "soon", "--trace", "x.trace", "--url", DEAD_POSTGRES), "not a duration");
    }
}
