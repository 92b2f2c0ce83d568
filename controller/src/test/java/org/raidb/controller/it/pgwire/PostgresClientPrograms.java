package org.raidb.controller.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.raidb.controller.it.support.ControllerFixture;

/** PostgreSQL's own client programs (libpq), as Debian installs them, and other clients run as processes. */
public final class PostgresClientPrograms {
    private PostgresClientPrograms() {}

    /** {@code psql}, {@code pgbench}, ...: the PostgreSQL 15 one, else the one on the path; null when neither. */
    public static Path find(String program) {
        for (String candidate : List.of("/usr/lib/postgresql/15/bin/" + program, "/usr/bin/" + program)) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }

    /**
     * Runs a client against the front end, with the test user's password in libpq's environment; its output
     * (stdout and stderr), once it ended within {@code timeoutSeconds} and exited with 0.
     */
    public static String run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("PGPASSWORD", ControllerFixture.PASSWORD);
        pb.environment().put("PGCONNECT_TIMEOUT", "30");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(timeoutSeconds, TimeUnit.SECONDS)).as(output).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output;
    }
}
