package org.raidb.controller.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Backends that are controllers: a URL leading back to this controller is refused at load, naming the cycle. */
class ControllerBackendChecksTest {
    private static final String VDB = """
              <virtualDatabase name="%s">
                <authentication>
                  <admin user="admin" password="a"/>
                  <virtualUser name="app" password="p"/>
                </authentication>
                <backend name="child" url="%s" user="app" password="p"/>
                <raidb1/>
              </virtualDatabase>
            """;

    private static String config(String... nameAndUrl) {
        StringBuilder x = new StringBuilder("<raidb>\n  <controller port=\"25390\" adminPort=\"25391\"/>\n");
        for (int i = 0; i < nameAndUrl.length; i += 2) {
            x.append(VDB.formatted(nameAndUrl[i], nameAndUrl[i + 1]));
        }
        return x.append("</raidb>\n").toString();
    }

    @Test
    void aBackendNamingThisControllersOwnVirtualDatabaseIsRefused() {
        assertThatThrownBy(() -> ConfigLoader.load(config("shop", "jdbc:raidb://localhost:25390/shop"), "raidb.xml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("raidb.xml:")
                .hasMessageContaining("<backend name=\"child\">")
                .hasMessageContaining("a cycle shop -> shop");
    }

    @Test
    void aCycleThroughAnotherVirtualDatabaseOfThisControllerIsRefused() {
        assertThatThrownBy(() -> ConfigLoader.load(
                        config("a", "jdbc:raidb://127.0.0.1:25390/b", "b", "jdbc:raidb://127.0.0.1:25390/a"),
                        "raidb.xml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("a cycle a -> b -> a")
                .hasMessageContaining("a cycle b -> a -> b");
    }

    @Test
    void anotherControllersVirtualDatabaseOrAnotherOfThisOneIsAccepted() throws Exception {
        RaidbConfig config = ConfigLoader.load(
                config("a", "jdbc:raidb://127.0.0.1:25391/a", "b", "jdbc:raidb://127.0.0.1:25390/a"), "raidb.xml");
        assertThat(config.virtualDatabase("b").backends().get(0).url()).isEqualTo("jdbc:raidb://127.0.0.1:25390/a");
    }

    @Test
    void aMalformedRaidbUrlIsRefusedAtLoad() {
        assertThatThrownBy(() -> ConfigLoader.load(config("shop", "jdbc:raidb://127.0.0.1:25399"), "raidb.xml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("<backend name=\"child\"> url:")
                .hasMessageContaining("virtual database name is missing");
    }
}
