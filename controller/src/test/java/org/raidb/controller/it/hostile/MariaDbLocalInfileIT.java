package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.MariaDbServer;

/**
 * A client of a virtual database over MariaDB cannot make the controller read its own files: MariaDB
 * Connector/J answers a server's LOAD DATA LOCAL INFILE request by default, so the controller connects
 * with allowLocalInfile=false.
 */
class MariaDbLocalInfileIT {
    private static final String DATABASE = "raidb_local_infile_it";

    @TempDir
    Path dir;

    @BeforeAll
    static void database() throws SQLException {
        assumeTrue(MariaDbServer.mariaDbAvailable(), "no MariaDB accepts root on 127.0.0.1:3306");
        MariaDbServer.recreateDatabase(DATABASE);
        try (Connection c = MariaDbServer.connect(DATABASE);
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE stolen (line VARCHAR(200))");
        }
    }

    @AfterAll
    static void dropDatabase() throws SQLException {
        if (MariaDbServer.mariaDbAvailable()) {
            MariaDbServer.dropDatabase(DATABASE);
        }
    }

    @Test
    void loadDataLocalInfileCannotReadTheControllersFiles() throws Exception {
        String secret = "controller-secret-" + UUID.randomUUID();
        Path file = Files.writeString(dir.resolve("secret.txt"), secret + "\n");
        String xml = """
        <raidb>
          <controller host="127.0.0.1" port="0" adminPort="0" dataDir="DATA"/>
          <virtualDatabase name="shop">
            <authentication><admin user="admin" password="adminpw"/><virtualUser name="app" password="apppw"/></authentication>
            <backend name="maria" url="URL" user="USER" password=""/>
            <raidb1/>
          </virtualDatabase>
        </raidb>
        """.replace("URL", ControllerConfigXml.escape(MariaDbServer.jdbcUrl(DATABASE)))
                .replace("USER", MariaDbServer.USER);
        try (ControllerFixture raidb = ControllerFixture.startFromXml(xml, "shop");
                Connection c = raidb.connect();
                Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE stolen"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContainingAll("Local infile is disabled");
        }
        try (Connection c = MariaDbServer.connect(DATABASE);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM stolen WHERE line LIKE 'controller-secret-%'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("rows read from the controller's file").isZero();
        }
    }
}
