package org.raidb.tpcw.bench;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A configuration the harness knows how to run. RAIDb-0 and RAIDb-2 join when the controller
 * supports them.
 */
public enum BenchConfig {
  /** Plain pgjdbc to one backend, no controller: the paper's SingleDB reference. */
  SINGLE("single", null),
  RAIDB1_RR("raidb1-rr", "roundRobin"),
  RAIDB1_LPRF("raidb1-lprf", "leastPending");

  final String cliName;
  /** The controller's readPolicy; null without a controller. */
  final String readPolicy;

  BenchConfig(String cliName, String readPolicy) {
    this.cliName = cliName;
    this.readPolicy = readPolicy;
  }

  public static BenchConfig parse(String name) {
    return Arrays.stream(values()).filter(c -> c.cliName.equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no configuration '" + name + "': use one of "
            + Arrays.stream(values()).map(c -> c.cliName).collect(Collectors.joining(", "))));
  }
}
