package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code raidb bench tls} runs end to end on a real embedded PostgreSQL server and two controllers, one over TLS,
 * and prints a row per side and the TLS/plain ratio against its target. Only the structure is checked, never a
 * speed; that the TLS side really is TLS is the driver's sslmode=verify-full in the URL it prints.
 */
class TlsBenchmarkIT {
    private static final String ROW = "\\| %s \\| [\\d,]+ \\| [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ \\|";

    @Test
    void printsPgjdbcRaidbAndRaidbOverTlsWithTheRatio() {
        String out = BenchCli.run(
                "bench", "tls", "--duration", "1", "--warmup", "0", "--rounds", "1", "--threads", "2", "--no-record");
        assertThat(out)
                .containsPattern(
                        "RAIDb TLS: jdbc:raidb://127\\.0\\.0\\.1:\\d+/bench\\?sslmode=verify-full&sslrootcert=")
                .containsPattern(String.format(ROW, "pgjdbc"))
                .containsPattern(String.format(ROW, "RAIDb"))
                .containsPattern(String.format(ROW, "RAIDb TLS"))
                .containsPattern(
                        "RAIDb TLS / RAIDb: [\\d.]+x throughput \\(target at least 0\\.85x\\): (met|NOT met)\\.");
    }

    @Test
    void tooManyThreadsAreRefused() {
        BenchCli.Outcome outcome = BenchCli.execute("bench", "tls", "--threads", "99", "--no-record");
        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).contains("--threads between 1 and");
    }
}
