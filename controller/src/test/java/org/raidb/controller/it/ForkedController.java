package org.raidb.controller.it;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.raidb.test.ControllerConfigXml;

/**
 * A controller in a JVM of its own with a capped heap, which exits on OutOfMemoryError: what proves
 * that a large result streams through it rather than being held.
 */
final class ForkedController implements AutoCloseable {
  private final Process process;
  private final Path log;
  private final String vdb;
  private final int port;

  private ForkedController(Process process, Path log, String vdb) {
    this.process = process;
    this.log = log;
    this.vdb = vdb;
    this.port = awaitListeningPort();
  }

  static ForkedController start(ControllerConfigXml config, String vdb, String maxHeap) throws IOException {
    Path dir = Files.createTempDirectory("raidb-forked");
    Path file = config.dataDir(dir.resolve("data")).writeTo(dir.resolve("raidb.xml"));
    Path log = dir.resolve("controller.log");
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    List<String> command = List.of(java, "-Xmx" + maxHeap, "-XX:+ExitOnOutOfMemoryError",
        "-cp", System.getProperty("java.class.path"), "org.raidb.controller.cli.RaidbCommand", "controller", "--config",
        file.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      return new ForkedController(process, log, vdb);
    } catch (RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:raidb://127.0.0.1:" + port + "/" + vdb, ControllerFixture.USER,
        ControllerFixture.PASSWORD);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  String log() throws IOException {
    return Files.readString(log);
  }

  /** The controller prints its listening port once it serves (port 0 in the configuration picks a free one). */
  private int awaitListeningPort() {
    Pattern listening = Pattern.compile("listening on [^:]*:(\\d+)");
    int[] found = new int[1];
    await().atMost(60, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS).until(() -> {
      if (!process.isAlive()) {
        throw new AssertionError("controller exited early:\n" + log());
      }
      Matcher m = listening.matcher(log());
      if (m.find()) {
        found[0] = Integer.parseInt(m.group(1));
        return true;
      }
      return false;
    });
    return found[0];
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
