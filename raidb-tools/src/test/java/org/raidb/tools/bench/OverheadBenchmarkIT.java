package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code raidb bench overhead} runs end to end on real embedded PostgreSQL servers and prints a row
 * per side, workload and thread count, with the ratios. Only the structure of its output is
 * checked, never a speed.
 */
class OverheadBenchmarkIT {
    private static final String NUMBER = "[\\d,]+(\\.\\d+)?";
    /** ops/s, p50, p99. */
    private static final String FIGURES = "\\|( +" + NUMBER + "){3} \\|";

    private static String run(String... args) {
        return BenchCli.run(args);
    }

    private static Pattern row(String fsync, String workload, int threads, String side, boolean ratiosToPgjdbc) {
        String ratios = ratiosToPgjdbc ? "( +" + NUMBER + "){2} \\|" : " +\\|";
        return Pattern.compile("(?m)^" + Pattern.quote(fsync) + " +" + Pattern.quote(workload) + " +" + threads + " "
                + Pattern.quote(side) + " +" + FIGURES + ratios);
    }

    @Test
    void oneBackendWithTheDefaultLogPrintsRatiosForEachWorkloadAndThreadCount() {
        String out = run(
                "bench",
                "overhead",
                "--duration",
                "1",
                "--warmup",
                "1",
                "--no-record",
                "--threads",
                "1,2",
                "--pgpool",
                "off");

        for (String workload : new String[] {"point SELECT", "single-row UPDATE"}) {
            for (int threads : new int[] {1, 2}) {
                assertThat(out)
                        .as(workload + " at " + threads + " threads")
                        .containsPattern(row("fsync on", workload, threads, "pgjdbc", false))
                        .containsPattern(row("fsync on", workload, threads, "RAIDb", true));
            }
        }
        assertThat(out)
                .contains("pgpool-II: skipped (--pgpool off)")
                .contains(
                        "RAIDb-1 over 1 backend (readPolicy roundRobin, completion all, default scheduler), recovery log on;")
                .contains("Targets (issue 3, item 7; issue 14):")
                .contains("point SELECT p50 through RAIDb <= 1.30x pgjdbc's at 1 thread: ")
                .contains("at 16 threads: not measured (no 16-thread run)")
                .doesNotContain("RAIDb log off");
    }

    @Test
    void twoBackendsWithTheLogOffAndPgpoolMeasuredOrSkippedWithTheReason() {
        String out = run(
                "bench",
                "overhead",
                "--duration",
                "1",
                "--warmup",
                "0",
                "--rounds",
                "1",
                "--backends",
                "2",
                "--recovery-log",
                "off",
                "--workload",
                "update",
                "--threads",
                "1",
                "--fsync",
                "off",
                "--no-record");

        assertThat(out)
                .containsPattern(row("fsync off", "single-row UPDATE", 1, "pgjdbc", false))
                .containsPattern(row("fsync off", "single-row UPDATE", 1, "RAIDb log off", true))
                .contains(
                        "RAIDb-1 over 2 backends (readPolicy roundRobin, completion all, default scheduler), recovery log off;")
                .contains(
                        "single-row UPDATE throughput through RAIDb log off >= 0.85x pgjdbc's at 16 threads: not measured")
                .doesNotContainPattern("(?m)^fsync \\S+ +\\S.* RAIDb +\\|")
                .doesNotContain("point SELECT  ");
        if (Pgpool.binary().isPresent()) {
            assertThat(out)
                    .containsPattern("pgpool-II: pgpool-II version [\\d.]+ .*native replication with load balance over "
                            + "the same 2 servers")
                    .containsPattern(row("fsync off", "single-row UPDATE", 1, "pgpool-II", true))
                    .containsPattern(
                            "fsync off, single-row UPDATE, 1 thread: .*RAIDb log off/pgpool-II ops/s " + NUMBER);
        } else {
            assertThat(out)
                    .contains("pgpool-II: skipped, not installed (no pgpool binary on the PATH")
                    .doesNotContainPattern("(?m)^fsync .* pgpool-II +\\|");
        }
    }
}
