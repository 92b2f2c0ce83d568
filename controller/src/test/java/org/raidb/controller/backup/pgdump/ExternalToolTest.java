package org.raidb.controller.backup.pgdump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.backup.BackupException;

/** A shell script stands in for pg_dump: what matters here is process handling, not PostgreSQL. */
class ExternalToolTest {

    @TempDir
    Path dir;

    @Test
    void stderrLinesArriveAsTheyComeAndStdoutIsCaptured() throws Exception {
        ExternalTool tool =
                new ExternalTool(script("echo listing; echo \"pg_dump: one\" >&2; echo \"pg_dump: $PGDATABASE\" >&2"));
        List<String> seen = new ArrayList<>();
        ExternalTool.Outcome outcome = tool.run(List.of(), Map.of("PGDATABASE", "shop"), seen::add);
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stdout()).isEqualTo("listing\n");
        assertThat(seen).containsExactly("pg_dump: one", "pg_dump: shop");
    }

    @Test
    void aFailureQuotesTheToolFromItsFirstErrorLine() throws Exception {
        ExternalTool tool = new ExternalTool(script(
                "echo 'pg_dump: last built-in OID is 16383' >&2; echo 'pg_dump: error: connection failed: refused' >&2;"
                        + " printf '\\tIs the server running?\\n' >&2; exit 1"));
        ExternalTool.Outcome outcome = tool.run(List.of(), Map.of(), line -> {});
        BackupException e = tool.failure(outcome, "dumping db1", "Check the server.");
        assertThat(e.getSQLState()).isEqualTo("58030");
        assertThat(e.getMessage())
                .isEqualTo("tool.sh failed dumping db1 (exit code 1): pg_dump: error: connection failed: refused"
                        + " / Is the server running?. Check the server.");
    }

    @Test
    void aFailureWithoutErrorLinesQuotesTheLastLines() throws Exception {
        ExternalTool tool = new ExternalTool(script("echo 'something odd' >&2; exit 3"));
        BackupException e = tool.failure(tool.run(List.of(), Map.of(), line -> {}), "restoring", "Try again.");
        assertThat(e.getMessage()).contains("(exit code 3): something odd. Try again.");
    }

    @Test
    void aListenerThatThrowsDoesNotStallTheTool() throws Exception {
        ExternalTool tool = new ExternalTool(script("for i in $(seq 1 20000); do echo \"line $i\" >&2; done"));
        ExternalTool.Outcome outcome = tool.run(List.of(), Map.of(), line -> {
            throw new IllegalStateException("listener broken");
        });
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stderr()).hasSize(20000);
    }

    @Test
    void theMilestoneRunsOnTheCallingThreadWhileTheToolGoesOn() throws Exception {
        Path fifo = fifo();
        // The tool cannot get past "read" until the milestone has written to the FIFO.
        ExternalTool tool = new ExternalTool(
                script("echo 'pg_dump: reading' >&2; echo 'pg_dump: dumping contents of table \"public.a\"' >&2;"
                        + " read answer < " + fifo + "; echo \"pg_dump: told $answer\" >&2"));
        List<String> calls = new ArrayList<>();
        ExternalTool.Outcome outcome =
                tool.run(List.of(), Map.of(), line -> {}, VerboseProgress.PG_DUMP_TABLE.asMatchPredicate(), () -> {
                    calls.add(Thread.currentThread().getName());
                    try {
                        Files.writeString(fifo, "go\n");
                    } catch (java.io.IOException e) {
                        throw new SQLException("cannot write to " + fifo, e);
                    }
                });
        assertThat(calls).containsExactly(Thread.currentThread().getName());
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stderr()).endsWith("pg_dump: told go");
    }

    @Test
    void withoutTheMilestoneLineItRunsOnceTheToolHasExited() throws Exception {
        ExternalTool tool = new ExternalTool(script("echo 'pg_dump: no tables' >&2; exit 1"));
        List<String> calls = new ArrayList<>();
        ExternalTool.Outcome outcome =
                tool.run(List.of(), Map.of(), line -> {}, line -> line.contains("contents"), () -> calls.add("ran"));
        assertThat(calls).containsExactly("ran");
        assertThat(outcome.exitCode()).isEqualTo(1);
    }

    @Test
    void aMilestoneThatFailsStopsTheToolAndIsTheFailure() throws Exception {
        Path fifo = fifo();
        // Would wait for ever on the FIFO that nobody writes: run returns only because the tool is stopped.
        ExternalTool tool = new ExternalTool(script("echo 'pg_dump: milestone' >&2; read answer < " + fifo));
        assertThatThrownBy(() -> tool.run(List.of(), Map.of(), line -> {}, line -> line.endsWith("milestone"), () -> {
                    throw new SQLException("counting failed", "08006");
                }))
                .isInstanceOf(SQLException.class)
                .hasMessage("counting failed");
    }

    private Path fifo() throws Exception {
        Path fifo = dir.resolve("answer");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor()).as("mkfifo exit code").isZero();
        return fifo;
    }

    private Path script(String body) throws Exception {
        Path file = dir.resolve("tool.sh");
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }
}
