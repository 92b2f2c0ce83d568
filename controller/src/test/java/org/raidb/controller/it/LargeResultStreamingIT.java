package org.raidb.controller.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

import static org.awaitility.Awaitility.await;

/**
 * A SELECT of two million rows through a controller whose heap is capped at 256 MiB: only possible if
 * rows stream from the backend cursor to the driver a batch at a time.
 */
class LargeResultStreamingIT {
  private static final int ROWS = 2_000_000;

  @RegisterExtension
  static final PostgresClusterExtension pg = PostgresClusterExtension.servers(2).database("shop");

  @Test
  void twoMillionRowsStreamThroughAControllerWith256MegabytesOfHeap() throws Exception {
    // The rows are loaded on the backends directly: this test is about reading, not about a 2M-row write.
    for (EmbeddedPostgresServer s : pg.cluster().servers()) {
      try (Connection c = s.connect(); Statement st = c.createStatement()) {
        st.execute("CREATE TABLE big AS SELECT g AS id, md5(g::text) AS payload, g * 1.5 AS amount "
            + "FROM generate_series(1, " + ROWS + ") g");
      }
    }
    Path dir = Files.createTempDirectory("raidb-stream");
    Path config = pg.controllerConfig("shop").dataDir(dir.resolve("data")).writeTo(dir.resolve("raidb.xml"));
    Path log = dir.resolve("controller.log");
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+ExitOnOutOfMemoryError",
        "-cp", System.getProperty("java.class.path"), "org.raidb.controller.cli.RaidbCommand", "controller", "--config",
        config.toString()));
    Process controller = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      int port = awaitListeningPort(log, controller);
      long rows = 0;
      long idSum = 0;
      try (Connection c = DriverManager.getConnection("jdbc:raidb://127.0.0.1:" + port + "/shop", "app", "apppw");
          Statement st = c.createStatement()) {
        // No setFetchSize: the default path (the controller's 1,000-row batches) is the one to prove.
        assertThat(st.getFetchSize()).isZero();
        try (ResultSet rs = st.executeQuery("SELECT id, payload, amount FROM big")) {
          while (rs.next()) {
            rows++;
            idSum += rs.getLong(1);
            if (rs.getString(2).length() != 32) {
              throw new AssertionError("bad payload at row " + rows);
            }
          }
        }
      }
      assertThat(rows).isEqualTo(ROWS);
      assertThat(idSum).isEqualTo((long) ROWS * (ROWS + 1) / 2);
      assertThat(controller.isAlive()).as("controller still running after the scan (no OutOfMemoryError)").isTrue();
    } finally {
      controller.destroy();
      if (!controller.waitFor(20, TimeUnit.SECONDS)) {
        controller.destroyForcibly();
      }
    }
    assertThat(Files.readString(log)).doesNotContain("OutOfMemoryError");
  }

  /** The controller prints its listening port once it serves (port 0 in the configuration picks a free one). */
  private static int awaitListeningPort(Path log, Process controller) {
    Pattern listening = Pattern.compile("listening on [^:]*:(\\d+)");
    int[] port = new int[1];
    await().atMost(60, TimeUnit.SECONDS).pollInterval(200, TimeUnit.MILLISECONDS).until(() -> {
      if (!controller.isAlive()) {
        throw new AssertionError("controller exited early:\n" + Files.readString(log));
      }
      Matcher m = listening.matcher(Files.readString(log));
      if (m.find()) {
        port[0] = Integer.parseInt(m.group(1));
        return true;
      }
      return false;
    });
    return port[0];
  }
}
