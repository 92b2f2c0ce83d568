package org.raidb.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The fallback used where zonky cannot run, forced here: the machine's own PostgreSQL binaries,
 * run as user postgres, on a data directory and port of our own.
 */
class SystemBinariesFallbackIT {

    @Test
    void machineBinariesStartKillAndRestartAServer() throws SQLException {
        Assumptions.assumeTrue(
                SystemBinariesLauncher.find().isPresent(), "no /usr/lib/postgresql/*/bin on this machine");
        String before = System.getProperty(LauncherChoice.PROPERTY);
        System.setProperty(LauncherChoice.PROPERTY, "system");
        try (EmbeddedPostgresCluster cluster = EmbeddedPostgresCluster.start(1, "fallback")) {
            assertThat(cluster.launcherDescription()).contains("/usr/lib/postgresql");
            EmbeddedPostgresServer server = cluster.server("pg1");
            assertThat(server.port()).isNotEqualTo(5432);
            try (Connection c = server.connect();
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id int)");
                s.execute("INSERT INTO t SELECT generate_series(1, 100)");
                try (ResultSet rs = s.executeQuery("SHOW unix_socket_directories")) {
                    rs.next();
                    assertThat(rs.getString(1)).isEmpty();
                }
            }
            server.kill();
            assertThat(server.isRunning()).isFalse();
            server.start();
            try (Connection c = server.connect();
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(100);
            }
            Path base = cluster.baseDirectory();
            cluster.close();
            assertThat(Files.exists(base)).isFalse();
        } finally {
            if (before == null) {
                System.clearProperty(LauncherChoice.PROPERTY);
            } else {
                System.setProperty(LauncherChoice.PROPERTY, before);
            }
        }
    }
}
