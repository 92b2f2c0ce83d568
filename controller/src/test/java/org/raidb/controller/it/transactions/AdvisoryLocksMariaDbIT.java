package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.MariaDbServer;

/**
 * MariaDB's user locks (GET_LOCK and its family) through RAIDb behave as on the server itself: they
 * are taken on one lock backend, on the session's own connection, and released when the session
 * ends. The two backends are two databases of the machine's MariaDB; its lock names are server-wide,
 * so each run uses names of its own.
 */
class AdvisoryLocksMariaDbIT {
    private static final List<String> DATABASES = List.of("raidb_advisory_a", "raidb_advisory_b");

    private final String key = "raidb_it_" + UUID.randomUUID();

    @BeforeAll
    static void databases() throws SQLException {
        assumeTrue(MariaDbServer.mariaDbAvailable(), "no MariaDB accepts root on 127.0.0.1:3306");
        for (String d : DATABASES) {
            MariaDbServer.recreateDatabase(d);
        }
    }

    @AfterAll
    static void dropDatabases() throws SQLException {
        if (MariaDbServer.mariaDbAvailable()) {
            for (String d : DATABASES) {
                MariaDbServer.dropDatabase(d);
            }
        }
    }

    @Test
    void aSessionReleasesWhatItTookAndLeavesNothingBehind() throws Exception {
        List<String> single;
        try (Connection c = MariaDbServer.connect(DATABASES.get(0))) {
            single = takeAndRelease(c, key + "-direct");
        }
        assertThat(single).containsExactly("1", "1", "1", "1", "1", "1", null);
        try (ControllerFixture raidb = ControllerFixture.startFromXml(config(), "shop")) {
            try (Connection c = raidb.connect()) {
                assertThat(takeAndRelease(c, key)).isEqualTo(single);
                assertThat(value(c, "SELECT GET_LOCK('" + key + "-kept', 0)")).isEqualTo("1");
            }
            // Closed without releasing: the lock does not stay behind on a pooled connection.
            try (Connection direct = MariaDbServer.connect("")) {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> "1".equals(value(direct, "SELECT IS_FREE_LOCK('" + key + "-kept')")));
            }
        }
    }

    private static List<String> takeAndRelease(Connection c, String name) throws SQLException {
        List<String> seen = new ArrayList<>();
        seen.add(value(c, "SELECT GET_LOCK('" + name + "', 0)"));
        seen.add(value(c, "SELECT RELEASE_LOCK('" + name + "')"));
        seen.add(value(c, "SELECT GET_LOCK('" + name + "', 0)"));
        seen.add(value(c, "SELECT 1"));
        seen.add(value(c, "SELECT IS_USED_LOCK('" + name + "') = CONNECTION_ID()"));
        seen.add(value(c, "SELECT RELEASE_ALL_LOCKS()"));
        seen.add(value(c, "SELECT RELEASE_LOCK('" + name + "')")); // NULL: no such lock any more
        return seen;
    }

    private static String config() {
        StringBuilder backends = new StringBuilder();
        for (String d : DATABASES) {
            backends.append("<backend name=\"")
                    .append(d)
                    .append("\" url=\"")
                    .append(ControllerConfigXml.escape(MariaDbServer.jdbcUrl(d)))
                    .append("\" user=\"")
                    .append(MariaDbServer.USER)
                    .append("\" password=\"\"/>\n");
        }
        return """
        <raidb>
          <controller host="127.0.0.1" port="0" adminPort="0" dataDir="DATA"/>
          <virtualDatabase name="shop">
            <authentication><admin user="admin" password="adminpw"/><virtualUser name="app" password="apppw"/></authentication>
            BACKENDS
            <raidb1 readPolicy="roundRobin" completion="all"/>
          </virtualDatabase>
        </raidb>
        """.replace("BACKENDS", backends);
    }

    private static String value(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as("a row from %s", sql).isTrue();
            return rs.getString(1);
        }
    }
}
