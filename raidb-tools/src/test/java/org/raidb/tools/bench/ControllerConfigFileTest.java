package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.ConfigDefaults;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.config.GroupConfig;
import org.raidb.controller.config.LoginConfig;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.VirtualDatabaseConfig;

/**
 * The file a forked benchmark controller starts from says what the in-process one is given: read
 * back by the controller's own loader (schema and semantic checks included), it is the same
 * configuration.
 */
class ControllerConfigFileTest {
    private static final GroupConfig JOINER = new GroupConfig(
            "raidb-bench-3-1234abcd",
            "tcp-loopback.xml",
            GroupConfig.Completion.ALL,
            "127.0.0.1",
            17_801,
            List.of("127.0.0.1:17800"),
            2000,
            GroupConfig.WhenAlone.START);

    private static RaidbConfig benchConfig(GroupConfig group, String password) {
        RaidbConfig config = BenchDatabase.configuration(
                List.of(),
                Path.of("/tmp/raidb-bench-group/data"),
                org.raidb.controller.config.RecoveryLogSettings.DEFAULT,
                group);
        VirtualDatabaseConfig vdb = config.virtualDatabases()
                .get(0)
                .withBackend(new BackendConfig(
                        "pg1",
                        "jdbc:postgresql://127.0.0.1:15432/bench",
                        "postgres",
                        password,
                        ConfigDefaults.BACKEND_WEIGHT,
                        ConfigDefaults.BACKEND_POOL_SIZE,
                        List.of()));
        return new RaidbConfig(config.controller(), List.of(vdb));
    }

    @Test
    void aGroupMembersConfigurationReadsBackAsTheSame() throws Exception {
        RaidbConfig config = benchConfig(JOINER, "p\"w<&>'");

        String xml = ControllerConfigFile.xml(config);

        assertThat(ConfigLoader.load(xml, "bench.xml")).isEqualTo(config);
        assertThat(xml).contains("members=\"127.0.0.1:17800\"").contains("bindPort=\"17801\"");
    }

    @Test
    void aControllerWithoutAGroupReadsBackWithoutOne() throws Exception {
        RaidbConfig config = benchConfig(null, "");

        String xml = ControllerConfigFile.xml(config);

        assertThat(ConfigLoader.load(xml, "bench.xml")).isEqualTo(config);
        assertThat(xml).doesNotContain("controllerGroup");
    }

    @Test
    void whatTheFileCannotSayIsRefusedRatherThanDropped() {
        RaidbConfig config = benchConfig(null, "");
        VirtualDatabaseConfig vdb = config.virtualDatabases()
                .get(0)
                .withBackend(new BackendConfig(
                        "pg2",
                        "jdbc:postgresql://127.0.0.1:15433/bench",
                        "postgres",
                        "",
                        1,
                        20,
                        List.of(new LoginConfig("bench", "real", "pw"))));

        assertThatThrownBy(() -> ControllerConfigFile.xml(new RaidbConfig(config.controller(), List.of(vdb))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("backend pg2: logins and tables cannot be written");
    }
}
