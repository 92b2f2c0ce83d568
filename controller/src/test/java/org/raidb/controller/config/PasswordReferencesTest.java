package org.raidb.controller.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Passwords given as {@code ${NAME}} in the configuration: every one is taken from the environment, or named when unset. */
class PasswordReferencesTest {
    private static final String XML = """
      <raidb>
        <controller port="25322" adminPort="25380">
          <tls keyStore="conf/c.p12" keyStorePassword="${KS}"/>
        </controller>
        <virtualDatabase name="shop">
          <authentication>
            <admin user="admin" password="${ADMIN}"/>
            <virtualUser name="app" password="${APP}"/>
            <virtualUser name="literal" password="pre${APP}"/>
          </authentication>
          <backend name="pg1" url="jdbc:postgresql://127.0.0.1:5433/shop" user="postgres" password="${PG1}">
            <login virtualUser="app" user="app_real" password="${LOGIN}"/>
          </backend>
          <recoveryLog url="jdbc:postgresql://127.0.0.1:5435/log" user="log" password="${LOG}"/>
          <raidb1/>
        </virtualDatabase>
      </raidb>
      """;

    private static final Map<String, String> ALL = Map.of(
            "KS",
            "ks-secret",
            "ADMIN",
            "admin-secret",
            "APP",
            "app-secret",
            "PG1",
            "pg1-secret",
            "LOGIN",
            "login-secret",
            "LOG",
            "log-secret");

    @Test
    void everyPasswordReferenceIsReplacedByItsVariable() throws Exception {
        RaidbConfig config = ConfigLoader.load(XML, "env.xml", new EnvironmentReference(ALL::get));
        assertThat(config.controller().tls().keyStorePassword()).isEqualTo("ks-secret");
        VirtualDatabaseConfig shop = config.virtualDatabases().get(0);
        assertThat(shop.authentication().admin().password()).isEqualTo("admin-secret");
        assertThat(shop.authentication().virtualUsers().get(0).password()).isEqualTo("app-secret");
        assertThat(shop.authentication().virtualUsers().get(1).password())
                .as("only a whole value is a reference")
                .isEqualTo("pre${APP}");
        BackendConfig pg1 = shop.backends().get(0);
        assertThat(pg1.password()).isEqualTo("pg1-secret");
        assertThat(pg1.logins().get(0).password()).isEqualTo("login-secret");
        assertThat(shop.recoveryLog().password()).isEqualTo("log-secret");
    }

    @Test
    void anUnsetVariableIsNamedWithItsElementAndPlace() {
        Map<String, String> withoutPg1 = new java.util.HashMap<>(ALL);
        withoutPg1.remove("PG1");
        withoutPg1.remove("LOG");
        assertThatThrownBy(() -> ConfigLoader.load(XML, "env.xml", new EnvironmentReference(withoutPg1::get)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("env.xml:11:")
                .hasMessageContaining("<backend name=\"pg1\"> password is ${PG1}")
                .hasMessageContaining("environment has no PG1: set it before starting the controller")
                .hasMessageContaining("<recoveryLog user=\"log\"> password is ${LOG}");
    }

    @Test
    void anUnsetKeyStorePasswordVariableIsNamedToo() {
        Map<String, String> withoutKs = new java.util.HashMap<>(ALL);
        withoutKs.remove("KS");
        assertThatThrownBy(() -> ConfigLoader.load(XML, "env.xml", new EnvironmentReference(withoutKs::get)))
                .hasMessageContaining("env.xml:3:")
                .hasMessageContaining("<tls keyStore=\"conf/c.p12\"> keyStorePassword is ${KS}");
    }
}
