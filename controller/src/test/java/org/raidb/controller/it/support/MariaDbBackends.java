package org.raidb.controller.it.support;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.raidb.test.MariaDbServer;

/** Databases of the local MariaDB as the backends of one RAIDb-1 virtual database named "maria". */
public final class MariaDbBackends {
    private MariaDbBackends() {}

    /** Fresh databases for a test, which is skipped (with the reason) when no MariaDB answers. */
    public static void recreate(List<String> databases) throws SQLException {
        Assumptions.assumeTrue(MariaDbServer.mariaDbAvailable(), "no MariaDB answers on 127.0.0.1:3306 as root");
        for (String d : databases) {
            MariaDbServer.recreateDatabase(d);
        }
    }

    public static void drop(List<String> databases) throws SQLException {
        if (MariaDbServer.mariaDbAvailable()) {
            for (String d : databases) {
                MariaDbServer.dropDatabase(d);
            }
        }
    }

    /** A controller whose virtual database "maria" has one backend per database, m1, m2, … */
    public static ControllerFixture controller(List<String> databases) throws Exception {
        StringBuilder backends = new StringBuilder();
        for (int i = 0; i < databases.size(); i++) {
            backends.append("    <backend name=\"m")
                    .append(i + 1)
                    .append("\" url=\"")
                    .append(MariaDbServer.jdbcUrl(databases.get(i)))
                    .append("\" user=\"")
                    .append(MariaDbServer.USER)
                    .append("\" password=\"")
                    .append(MariaDbServer.PASSWORD)
                    .append("\"/>\n");
        }
        return ControllerFixture.startFromXml("""
        <raidb>
          <controller port="0" adminPort="0" dataDir="DATA"/>
          <virtualDatabase name="maria">
            <authentication><admin user="admin" password="adminpw"/><virtualUser name="app" password="apppw"/></authentication>
        %s    <raidb1 readPolicy="roundRobin" completion="all"/>
          </virtualDatabase>
        </raidb>
        """.formatted(backends), "maria");
    }

    /** The query gives the same, non-empty rows in every database; returns them. */
    public static List<String> sameInEvery(List<String> databases, String query) throws SQLException {
        return ReplicaChecks.assertSameOnEvery(
                databases.stream()
                        .map(d -> (ReplicaChecks.Backend) () -> MariaDbServer.connect(d))
                        .toList(),
                query);
    }
}
