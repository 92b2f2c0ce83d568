package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.raidb.tools.cli.RaidbCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * {@code raidb bench overhead} runs end to end on a real embedded PostgreSQL and prints a ratio for
 * each workload and thread count. Only the structure of its output is checked, never a speed.
 */
class OverheadBenchmarkIT {
  private static final Logger log = LoggerFactory.getLogger(OverheadBenchmarkIT.class);
  private static final String NUMBER = "[\\d,]+(\\.\\d+)?";

  @Test
  void shortRunExitsZeroAndPrintsRatiosForEachWorkloadAndThreadCount() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new RaidbCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err));

    int exit = cli.execute("bench", "overhead", "--duration", "1", "--warmup", "1", "--no-record", "--threads", "1,2");

    log.info("bench overhead printed:\n{}", out);
    assertThat(exit).as("exit code; stderr: %s", err).isZero();
    for (String workload : new String[] {"point SELECT", "single-row UPDATE"}) {
      for (int threads : new int[] {1, 2}) {
        // workload, threads | 3 pgjdbc figures | 3 RAIDb figures | 2 ratios
        Pattern row = Pattern.compile("(?m)^" + Pattern.quote(workload) + " +" + threads + " \\|( +" + NUMBER + "){3} \\|( +"
            + NUMBER + "){3} \\|( +" + NUMBER + "){2}$");
        assertThat(out.toString()).as(workload + " at " + threads + " threads").containsPattern(row);
      }
    }
    assertThat(out.toString()).contains("Targets (issue 3, item 7):")
        .contains("point SELECT p50 through RAIDb <= 1.30x pgjdbc's at 1 thread: ")
        .contains("at 16 threads: not measured (no 16-thread run)");
  }
}
