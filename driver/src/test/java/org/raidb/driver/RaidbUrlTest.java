package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RaidbUrlTest {

    @Test
    void parsesOneHostWithDefaultPort() throws SQLException {
        RaidbUrl url = RaidbUrl.parse("jdbc:raidb://db1/shop");
        assertThat(url.controllers()).containsExactly(new HostAndPort("db1", 25322));
        assertThat(url.virtualDatabase()).isEqualTo("shop");
        assertThat(url.parameters()).isEmpty();
    }

    @Test
    void parsesSeveralHostsIpv6AndQuery() throws SQLException {
        RaidbUrl url = RaidbUrl.parse("jdbc:raidb://a:1000,[::1]:2000,[fe80::1],b/vdb?user=bob&password=p%26w&x=");
        assertThat(url.controllers())
                .containsExactly(
                        new HostAndPort("a", 1000),
                        new HostAndPort("::1", 2000),
                        new HostAndPort("fe80::1", 25322),
                        new HostAndPort("b", 25322));
        assertThat(url.parameters())
                .containsEntry("user", "bob")
                .containsEntry("password", "p&w")
                .containsEntry("x", "");
        assertThat(url.controllers().get(1)).hasToString("[::1]:2000");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "jdbc:raidb:db/vdb|'//' must follow",
                "jdbc:raidb://db|virtual database name is missing",
                "jdbc:raidb://db/|virtual database name after '/' is empty",
                "jdbc:raidb://db/a/b|contains '/'",
                "jdbc:raidb:///vdb|no controller host",
                "jdbc:raidb://a,,b/vdb|controller #2 of the host list is empty",
                "jdbc:raidb://:25322/vdb|empty host name",
                "jdbc:raidb://db:/vdb|port after 'db:' is empty",
                "jdbc:raidb://db:http/vdb|port 'http' of host 'db'",
                "jdbc:raidb://db:70000/vdb|port '70000' of host 'db'",
                "jdbc:raidb://db:0/vdb|port '0' of host 'db'",
                "jdbc:raidb://[::1/vdb|no closing ']'",
                "jdbc:raidb://[::1]x/vdb|unexpected 'x' after the IPv6 address",
                "jdbc:raidb://::1/vdb|must be written in brackets",
                "jdbc:raidb://db/vdb?user|'user' has no '=value'",
                "jdbc:raidb://db/vdb?=x|has no name before '='",
                "jdbc:raidb://db/vdb?a=1&&b=2|empty parameter",
                "jdbc:raidb://db/vdb?a=%zz|bad %-escape",
            })
    void malformedUrlsNameTheMistakeWith08001(String url, String expected) {
        assertThatThrownBy(() -> RaidbUrl.parse(url))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    }

    @Test
    void malformedUrlMessageMasksThePassword() {
        assertThatThrownBy(() -> RaidbUrl.parse("jdbc:raidb://db:x/vdb?password=secret"))
                .hasMessageNotContaining("secret");
    }

    @Test
    void acceptsOnlyItsScheme() {
        Driver driver = new Driver();
        assertThat(driver.acceptsURL("jdbc:raidb://h/v")).isTrue();
        assertThat(driver.acceptsURL("jdbc:raidb:broken")).isTrue(); // ours, so that the user gets our error message
        assertThat(driver.acceptsURL("jdbc:postgresql://h/v")).isFalse();
        assertThat(driver.acceptsURL(null)).isFalse();
    }

    @Test
    void connectReturnsNullForOtherSchemes() throws SQLException {
        assertThat(new Driver().connect("jdbc:postgresql://localhost/x", new Properties()))
                .isNull();
    }

    @Test
    void urlParametersWinOverProperties() throws SQLException {
        Properties info = new Properties();
        info.setProperty("user", "fromProps");
        info.setProperty("password", "pw");
        info.setProperty("fetchSize", "50");
        ConnectionSettings s = ConnectionSettings.parse("jdbc:raidb://h/v?user=fromUrl&applicationName=app", info);
        assertThat(s.user()).isEqualTo("fromUrl");
        assertThat(s.password()).isEqualTo("pw");
        assertThat(s.fetchSize()).isEqualTo(50);
        assertThat(s.clientProperties())
                .containsEntry("applicationName", "app")
                .doesNotContainKeys("user", "password", "fetchSize");
    }

    @Test
    void defaults() throws SQLException {
        ConnectionSettings s = ConnectionSettings.parse("jdbc:raidb://h/v", null);
        assertThat(s.policy()).isEqualTo(ControllerPolicy.ORDERED);
        assertThat(s.connectTimeoutSeconds()).isEqualTo(10);
        assertThat(s.socketTimeoutSeconds()).isZero();
        assertThat(s.maxFrameBytes()).isEqualTo(64 * 1024 * 1024);
        assertThat(s.fetchSize()).isZero();
        assertThat(s.user()).isNull();
    }

    @Test
    void badPropertyValuesAre08001NamingTheProperty() {
        assertThatThrownBy(() -> ConnectionSettings.parse("jdbc:raidb://h/v?connectTimeout=soon", null))
                .hasMessageContaining("connectTimeout")
                .hasMessageContaining("soon")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
        assertThatThrownBy(() -> ConnectionSettings.parse("jdbc:raidb://h/v?controllerPolicy=best", null))
                .hasMessageContaining("controllerPolicy");
        assertThatThrownBy(() -> ConnectionSettings.parse("jdbc:raidb://h/v?maxFrameBytes=0", null))
                .hasMessageContaining("maxFrameBytes");
    }

    @Test
    void propertyInfoListsEveryPropertyWithMergedValues() throws SQLException {
        DriverPropertyInfo[] infos =
                new Driver().getPropertyInfo("jdbc:raidb://h/v?controllerPolicy=random", new Properties());
        assertThat(Arrays.stream(infos).map(i -> i.name))
                .contains(
                        "user",
                        "password",
                        "controllerPolicy",
                        "connectTimeout",
                        "socketTimeout",
                        "maxFrameBytes",
                        "fetchSize");
        DriverPropertyInfo policy = Arrays.stream(infos)
                .filter(i -> i.name.equals("controllerPolicy"))
                .findFirst()
                .orElseThrow();
        assertThat(policy.value).isEqualTo("random");
        assertThat(policy.choices).containsExactly("ordered", "random", "roundRobin");
    }
}
