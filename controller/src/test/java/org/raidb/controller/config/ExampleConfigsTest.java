package org.raidb.controller.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The examples users copy from must stay valid as the schema evolves. */
class ExampleConfigsTest {

    static List<Path> examples() throws Exception {
        return ConfigFiles.examples();
    }

    @Test
    void thereAreExamples() throws Exception {
        assertThat(examples()).extracting(p -> p.getFileName().toString()).contains("raidb-example.xml");
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleLoads(Path example) throws Exception {
        RaidbConfig config = ConfigLoader.load(example);
        assertThat(config.virtualDatabases()).isNotEmpty();
    }

    @Test
    void theMainExampleHasThreePostgresBackends() throws Exception {
        RaidbConfig config = ConfigLoader.load(ConfigFiles.configDirectory().resolve("raidb-example.xml"));

        assertThat(config.controller())
                .isEqualTo(new ControllerSettings(
                        "0.0.0.0", 25322, "127.0.0.1", 25380, Path.of("data"), 64 * 1024 * 1024, false));
        VirtualDatabaseConfig shop = config.virtualDatabase("shop");
        assertThat(shop.backends())
                .extracting(BackendConfig::url)
                .containsExactly(
                        "jdbc:postgresql://127.0.0.1:5433/shop",
                        "jdbc:postgresql://127.0.0.1:5434/shop",
                        "jdbc:postgresql://127.0.0.1:5435/shop");
        assertThat(shop.authentication().virtualUsers())
                .extracting(UserCredentials::name)
                .contains("app");
        assertThat(shop.replication()).isEqualTo(new ReplicationConfig("raidb1", "roundRobin", "all"));
    }
}
