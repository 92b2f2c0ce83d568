package org.raidb.controller.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The defaults documented in raidb.xsd are the ones the loader applies. */
class ConfigDefaultsTest {

    @Test
    void schemaDefaultsMatchConfigDefaults() throws Exception {
        Map<String, String> schemaDefaults = schemaDefaultsByTypeAndAttribute();

        assertThat(schemaDefaults)
                .containsEntry("controllerType/host", ConfigDefaults.HOST)
                .containsEntry("controllerType/port", String.valueOf(ConfigDefaults.PORT))
                .containsEntry("controllerType/adminHost", ConfigDefaults.ADMIN_HOST)
                .containsEntry("controllerType/adminPort", String.valueOf(ConfigDefaults.ADMIN_PORT))
                .containsEntry(
                        "controllerType/allowH2BackendsFromAdmin",
                        String.valueOf(ConfigDefaults.ALLOW_H2_BACKENDS_FROM_ADMIN))
                .containsEntry("controllerType/dataDir", ConfigDefaults.DATA_DIR)
                .containsEntry("controllerType/maxFrameBytes", String.valueOf(ConfigDefaults.MAX_FRAME_BYTES))
                .containsEntry(
                        "controllerType/preLoginMaxFrameBytes",
                        String.valueOf(ConfigDefaults.PRE_LOGIN_MAX_FRAME_BYTES))
                .containsEntry(
                        "controllerType/handshakeTimeout", String.valueOf(ConfigDefaults.HANDSHAKE_TIMEOUT_MILLIS))
                .containsEntry(
                        "controllerType/loginAttemptsBeforeDelay",
                        String.valueOf(ConfigDefaults.LOGIN_ATTEMPTS_BEFORE_DELAY))
                .containsEntry("controllerType/loginMaxDelay", String.valueOf(ConfigDefaults.LOGIN_MAX_DELAY_MILLIS))
                .containsEntry(
                        "controllerType/clientErrorLogInterval",
                        String.valueOf(ConfigDefaults.CLIENT_ERROR_LOG_INTERVAL_MILLIS))
                .containsEntry("controllerType/shutdownTimeout", String.valueOf(ConfigDefaults.SHUTDOWN_TIMEOUT_MILLIS))
                .containsEntry("controllerType/pgAuthentication", PostgresWireSettings.OFF.authentication())
                .containsEntry("backendType/password", ConfigDefaults.PASSWORD)
                .containsEntry("backendType/weight", String.valueOf(ConfigDefaults.BACKEND_WEIGHT))
                .containsEntry("backendType/poolSize", String.valueOf(ConfigDefaults.BACKEND_POOL_SIZE))
                .containsEntry("loginType/password", ConfigDefaults.PASSWORD)
                .containsEntry("raidb1Type/readPolicy", ConfigDefaults.READ_POLICY)
                .containsEntry("raidb1Type/completion", ConfigDefaults.COMPLETION)
                .containsEntry("raidb2Type/readPolicy", ConfigDefaults.READ_POLICY)
                .containsEntry("raidb2Type/completion", ConfigDefaults.COMPLETION)
                .containsEntry("raidb1ecType/readPolicy", ConfigDefaults.READ_POLICY)
                .containsEntry("raidb1ecType/completion", ConfigDefaults.COMPLETION)
                .containsEntry("raidb1ecType/nodes", String.valueOf(ConfigDefaults.ERROR_CHECKING_NODES))
                .containsEntry("raidb2ecType/readPolicy", ConfigDefaults.READ_POLICY)
                .containsEntry("raidb2ecType/completion", ConfigDefaults.COMPLETION)
                .containsEntry("raidb2ecType/nodes", String.valueOf(ConfigDefaults.ERROR_CHECKING_NODES))
                .containsEntry("recoveryLogType/enabled", String.valueOf(RecoveryLogSettings.DEFAULT.enabled()))
                .containsEntry("recoveryLogType/tablePrefix", RecoveryLogSettings.DEFAULT.tablePrefix())
                .containsEntry(
                        "recoveryLogType/maxBatchEntries",
                        String.valueOf(RecoveryLogSettings.DEFAULT.maxBatchEntries()))
                .containsEntry(
                        "recoveryLogType/maxWaitMicros", String.valueOf(RecoveryLogSettings.DEFAULT.maxWaitMicros()))
                .containsEntry(
                        "recoveryLogType/purgeAfter",
                        RecoveryLogSettings.DEFAULT.purgeAfter().toHours() + "h")
                .containsEntry("backupType/backuper", BackupSettings.DEFAULT.backuper())
                .containsEntry("schedulerType/type", ConfigDefaults.SCHEDULER)
                .containsEntry("schedulerType/lockTimeout", String.valueOf(ConfigDefaults.LOCK_TIMEOUT_MILLIS))
                .containsEntry("determinismType/multiStatements", ConfigDefaults.MULTI_STATEMENTS)
                .containsEntry("determinismType/onVolatileTrigger", ConfigDefaults.ON_VOLATILE_TRIGGER)
                .containsEntry(
                        "healthType/backendTimeout", String.valueOf(HealthSettings.DEFAULT.backendTimeoutMillis()))
                .containsEntry(
                        "healthType/probeInterval", String.valueOf(HealthSettings.DEFAULT.probeIntervalMillis()));
    }

    @Test
    void defaultsAreAppliedWhenAttributesAreLeftOut() throws Exception {
        RaidbConfig config = load("");

        assertThat(config.controller())
                .isEqualTo(new ControllerSettings(
                        ConfigDefaults.HOST,
                        25322,
                        ConfigDefaults.ADMIN_HOST,
                        25380,
                        java.nio.file.Path.of("data"),
                        67108864,
                        ConfigDefaults.ALLOW_H2_BACKENDS_FROM_ADMIN));
        VirtualDatabaseConfig db = config.virtualDatabase("db");
        assertThat(db.authentication().admin()).isEqualTo(new UserCredentials("admin", ""));
        assertThat(db.authentication().virtualUsers()).containsExactly(new UserCredentials("app", ""));
        assertThat(db.backends())
                .containsExactly(new BackendConfig(
                        "b1",
                        "jdbc:h2:mem:b1",
                        "sa",
                        "",
                        1,
                        20,
                        java.util.List.of(new LoginConfig("app", "real", ""))));
        assertThat(db.replication()).isEqualTo(new ReplicationConfig("raidb1", "roundRobin", "all"));
        assertThat(db.health()).isEqualTo(HealthSettings.DEFAULT);
    }

    @Test
    void thePostgresqlFrontEndIsOffUnlessPgPortIsGiven() throws Exception {
        assertThat(load("").controller().postgresWire().enabled()).isFalse();
        String xml = """
                <raidb>
                  <controller port="5000" pgPort="5432" pgAuthentication="md5"/>
                  <virtualDatabase name="db">
                    <authentication><admin user="admin"/><virtualUser name="app"/></authentication>
                    <backend name="b1" url="jdbc:h2:mem:b1" user="sa"/>
                    <raidb1/>
                  </virtualDatabase>
                </raidb>
                """;
        assertThat(ConfigLoader.load(xml, "pg.xml").controller().postgresWire())
                .isEqualTo(new PostgresWireSettings(5432, PostgresWireSettings.MD5));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> ConfigLoader.load(xml.replace("5432", "5000"), "pg.xml"))
                .hasMessageContaining("pgPort is 5000");
    }

    @Test
    void healthSettingsAreRead() throws Exception {
        assertThat(load("<health backendTimeout=\"3000\" probeInterval=\"0\"/>")
                        .virtualDatabase("db")
                        .health())
                .isEqualTo(new HealthSettings(3000, 0));
    }

    /** A virtual database with every attribute left out, and {@code extra} before its RAIDb level. */
    private static RaidbConfig load(String extra) throws Exception {
        return ConfigLoader.load("""
        <raidb>
          <virtualDatabase name="db">
            <authentication><admin user="admin"/><virtualUser name="app"/></authentication>
            <backend name="b1" url="jdbc:h2:mem:b1" user="sa"><login virtualUser="app" user="real"/></backend>
            EXTRA
            <raidb1/>
          </virtualDatabase>
        </raidb>
        """.replace("EXTRA", extra), "minimal.xml");
    }

    private static Map<String, String> schemaDefaultsByTypeAndAttribute() throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance();
        factory.setNamespaceAware(true);
        Map<String, String> defaults = new HashMap<>();
        try (InputStream xsd = ConfigLoader.class.getResourceAsStream(SchemaValidator.SCHEMA_RESOURCE)) {
            NodeList attributes = factory.newDocumentBuilder()
                    .parse(xsd)
                    .getElementsByTagNameNS("http://www.w3.org/2001/XMLSchema", "attribute");
            for (int i = 0; i < attributes.getLength(); i++) {
                Element attribute = (Element) attributes.item(i);
                if (attribute.hasAttribute("default")) {
                    String type = ((Element) attribute.getParentNode()).getAttribute("name");
                    defaults.put(type + "/" + attribute.getAttribute("name"), attribute.getAttribute("default"));
                }
            }
        }
        return defaults;
    }
}
