package org.raidb.controller.it.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.raidb.controller.Controller;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;

/** An in-process controller over a test cluster, and the checks tests make on its backends. */
public final class ControllerFixture implements AutoCloseable {
    public static final String USER = "app";
    public static final String PASSWORD = "apppw";

    private final Controller controller;
    private final String vdb;

    private ControllerFixture(Controller controller, String vdb) {
        this.controller = controller;
        this.vdb = vdb;
    }

    public static ControllerFixture start(ControllerConfigXml config, String vdb) throws Exception {
        return start(config, vdb, Files.createTempDirectory("raidb-it"));
    }

    /** Starts with its data in {@code dir} (kept: a later start there is a controller restart). */
    public static ControllerFixture start(ControllerConfigXml config, String vdb, Path dir) throws Exception {
        Path file = config.dataDir(dir.resolve("data")).writeTo(dir.resolve("raidb.xml"));
        return new ControllerFixture(Controller.start(ConfigLoader.load(file)), vdb);
    }

    /** Starts from a configuration file written by the test (its data directory is whatever the file says). */
    public static ControllerFixture startFromFile(Path file, String vdb) throws Exception {
        return new ControllerFixture(Controller.start(ConfigLoader.load(file)), vdb);
    }

    /** Starts from a hand-written configuration; the text DATA stands for a fresh data directory. */
    public static ControllerFixture startFromXml(String xml, String vdb) throws Exception {
        Path dir = Files.createTempDirectory("raidb-it");
        Path file = Files.writeString(
                dir.resolve("raidb.xml"),
                xml.replace("DATA", dir.resolve("data").toString()));
        return new ControllerFixture(Controller.start(ConfigLoader.load(file)), vdb);
    }

    public Controller controller() {
        return controller;
    }

    public String url() {
        return "jdbc:raidb://127.0.0.1:" + controller.port() + "/" + vdb;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), USER, PASSWORD);
    }

    /** Fails unless every backend of the fixture's virtual database is enabled. */
    public void assertEveryBackendEnabled() {
        org.assertj.core.api.Assertions.assertThat(
                        controller.virtualDatabase(vdb).backends())
                .allSatisfy(b -> org.assertj.core.api.Assertions.assertThat(b.isEnabled())
                        .as(b.name() + " enabled")
                        .isTrue());
    }

    /** Per-table checksums of each running backend, straight through pgjdbc, keyed by backend name. */
    public static Map<String, Map<String, String>> checksums(Iterable<EmbeddedPostgresServer> servers)
            throws SQLException {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (EmbeddedPostgresServer s : servers) {
            try (Connection c = s.connect()) {
                out.put(s.name(), TableChecksum.checksums(c));
            }
        }
        return out;
    }

    @Override
    public void close() {
        controller.close();
    }
}
