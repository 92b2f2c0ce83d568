package org.raidb.tpcw.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code raidb controller --config FILE} process over some backends. Port 0 in the configuration:
 * the controller picks a free port and says which in its "listening on HOST:PORT" line.
 */
final class ControllerProcess implements AutoCloseable {

  static final String USER = "bench";
  static final String PASSWORD = "bench";
  private static final Pattern LISTENING = Pattern.compile("listening on [^ ]+:(\\d+)");

  private final Process process;
  private final int port;

  private ControllerProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** {@code readPolicy}: roundRobin or leastPending. */
  static ControllerProcess start(RaidbHome home, List<BackendServer> backends, String database, String readPolicy,
      Path workDir) throws Exception {
    Path config = workDir.resolve("raidb-" + readPolicy + "-" + backends.size() + ".xml");
    Files.writeString(config, configuration(backends, database, readPolicy, workDir.resolve("controller-data")));
    Path log = workDir.resolve(config.getFileName().toString().replace(".xml", ".log"));
    Process process = new ProcessBuilder(home.raidbCommand(List.of("controller", "--config", config.toString())))
        .redirectErrorStream(true).start();
    CompletableFuture<Integer> port = new CompletableFuture<>();
    Thread pump = new Thread(() -> copyLogFindingPort(process, log, port), "controller-log");
    pump.setDaemon(true);
    pump.start();
    try {
      return new ControllerProcess(process, port.get(2, TimeUnit.MINUTES));
    } catch (Exception e) {
      process.destroyForcibly();
      throw new IllegalStateException("the controller did not start; see " + log, e);
    }
  }

  private static void copyLogFindingPort(Process process, Path log, CompletableFuture<Integer> port) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        var out = Files.newBufferedWriter(log)) {
      String line;
      while ((line = in.readLine()) != null) {
        out.write(line);
        out.newLine();
        out.flush();
        Matcher m = LISTENING.matcher(line);
        if (!port.isDone() && m.find()) {
          port.complete(Integer.parseInt(m.group(1)));
        }
      }
    } catch (IOException e) {
      port.completeExceptionally(e);
    }
    port.completeExceptionally(new IllegalStateException("controller exited"));
  }

  static String configuration(List<BackendServer> backends, String database, String readPolicy, Path dataDir) {
    StringBuilder x = new StringBuilder("<raidb>\n");
    x.append("  <controller host=\"127.0.0.1\" port=\"0\" adminPort=\"0\" dataDir=\"").append(dataDir).append("\"/>\n");
    x.append("  <virtualDatabase name=\"").append(database).append("\">\n");
    x.append("    <authentication>\n      <admin user=\"admin\" password=\"admin\"/>\n");
    x.append("      <virtualUser name=\"").append(USER).append("\" password=\"").append(PASSWORD).append("\"/>\n");
    x.append("    </authentication>\n");
    for (BackendServer b : backends) {
      // poolSize: at least one connection per player session, so that the pool is never what limits.
      x.append("    <backend name=\"").append(b.name()).append("\" url=\"").append(b.url(database))
          .append("\" user=\"").append(b.user()).append("\" password=\"").append(b.password()).append("\" poolSize=\"150\"/>\n");
    }
    // A replayed trace cannot retry a deadlock victim, and a victim would change the final state:
    // replays run one write transaction at a time (docs/tpcw.md, "Replaying through RAIDb").
    x.append("    <scheduler type=\"pessimisticTransaction\"/>\n");
    x.append("    <raidb1 readPolicy=\"").append(readPolicy).append("\" completion=\"all\"/>\n");
    x.append("  </virtualDatabase>\n</raidb>\n");
    return x.toString();
  }

  String url(String database) {
    return "jdbc:raidb://127.0.0.1:" + port + "/" + database;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
