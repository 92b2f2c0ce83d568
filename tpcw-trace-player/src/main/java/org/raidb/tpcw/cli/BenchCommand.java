package org.raidb.tpcw.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code tpcw bench}: placeholder until the harness lands. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmark configurations against embedded backends.")
final class BenchCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UnsupportedOperationException("not yet");
  }
}
