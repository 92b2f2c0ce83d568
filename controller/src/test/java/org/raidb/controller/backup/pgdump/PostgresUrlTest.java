package org.raidb.controller.backup.pgdump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.raidb.controller.backup.BackendEndpoint;
import org.raidb.controller.backup.pgdump.PostgresUrl.HostPort;

class PostgresUrlTest {

    @Test
    void hostPortAndDatabase() {
        PostgresUrl url = PostgresUrl.parse("jdbc:postgresql://db1.example.com:5433/shop");
        assertThat(url.hosts()).containsExactly(new HostPort("db1.example.com", 5433));
        assertThat(url.database()).isEqualTo("shop");
        assertThat(url.parameters()).isEmpty();
    }

    @Test
    void defaultsForMissingParts() {
        assertThat(PostgresUrl.parse("jdbc:postgresql://db1/shop").hosts()).containsExactly(new HostPort("db1", 5432));
        PostgresUrl bare = PostgresUrl.parse("jdbc:postgresql:shop");
        assertThat(bare.hosts()).containsExactly(new HostPort("localhost", 5432));
        assertThat(bare.database()).isEqualTo("shop");
        assertThat(PostgresUrl.parse("jdbc:postgresql:/").database()).isEmpty();
        assertThat(PostgresUrl.parse("jdbc:postgresql://db1:6000/").database()).isEmpty();
        assertThat(PostgresUrl.parse("jdbc:postgresql:///shop").hosts())
                .containsExactly(new HostPort("localhost", 5432));
    }

    @Test
    void severalHostsAndIpv6() {
        PostgresUrl url = PostgresUrl.parse("jdbc:postgresql://a:5001,[::1]:5002,[fe80::1],c/shop");
        assertThat(url.hosts())
                .containsExactly(
                        new HostPort("a", 5001),
                        new HostPort("::1", 5002),
                        new HostPort("fe80::1", 5432),
                        new HostPort("c", 5432));
        Map<String, String> env = url.libpqEnvironment(new BackendEndpoint("jdbc:postgresql://...", "u", ""));
        assertThat(env).containsEntry("PGHOST", "a,::1,fe80::1,c").containsEntry("PGPORT", "5001,5002,5432,5432");
    }

    @Test
    void parametersAndPercentEncodingAsPgjdbcDecodesThem() {
        PostgresUrl url = PostgresUrl.parse(
                "jdbc:postgresql://db1/my%20shop?user=app&password=p%26w&sslmode=verify-full&connectTimeout=7&readOnly");
        assertThat(url.database()).isEqualTo("my shop");
        assertThat(url.parameters()).containsEntry("password", "p&w").containsEntry("readOnly", "");
    }

    @Test
    void theEnvironmentCarriesThePasswordAndTheSettingsLibpqKnows() {
        PostgresUrl url = PostgresUrl.parse(
                "jdbc:postgresql://db1:5433/shop?sslmode=require&connectTimeout=7&options=-c%20statement_timeout%3D0");
        Map<String, String> env =
                url.libpqEnvironment(new BackendEndpoint("jdbc:postgresql://db1:5433/shop", "app", "s3cret"));
        assertThat(env)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "PGHOST",
                        "db1",
                        "PGPORT",
                        "5433",
                        "PGDATABASE",
                        "shop",
                        "PGUSER",
                        "app",
                        "PGPASSWORD",
                        "s3cret",
                        "PGSSLMODE",
                        "require",
                        "PGCONNECT_TIMEOUT",
                        "7",
                        "PGOPTIONS",
                        "-c statement_timeout=0"));
    }

    @Test
    void credentialsFromTheUrlWhenTheEndpointHasNone() {
        PostgresUrl url = PostgresUrl.parse("jdbc:postgresql://db1/shop?user=app&password=pw&ssl=true");
        Map<String, String> env = url.libpqEnvironment(new BackendEndpoint("jdbc:postgresql://db1/shop", "", ""));
        assertThat(env)
                .containsEntry("PGUSER", "app")
                .containsEntry("PGPASSWORD", "pw")
                .containsEntry("PGSSLMODE", "require");
        assertThat(url.libpqEnvironment(new BackendEndpoint("x", "other", "pw2")))
                .containsEntry("PGUSER", "other")
                .containsEntry("PGPASSWORD", "pw2");
    }

    @Test
    void noDatabaseLeavesLibpqToDefaultIt() {
        Map<String, String> env =
                PostgresUrl.parse("jdbc:postgresql://db1/").libpqEnvironment(new BackendEndpoint("x", "app", ""));
        assertThat(env).doesNotContainKeys("PGDATABASE", "PGPASSWORD");
    }

    @Test
    void pgRestoreGetsTheDatabaseQuotedNeverThePassword() {
        BackendEndpoint endpoint = new BackendEndpoint("x", "app", "s3cret");
        assertThat(PgDumpBackuper.connectionString(PostgresUrl.parse("jdbc:postgresql://db1/shop"), endpoint))
                .isEqualTo("dbname='shop'");
        assertThat(PgDumpBackuper.connectionString(PostgresUrl.parse("jdbc:postgresql://db1/a%3Db%27c"), endpoint))
                .isEqualTo("dbname='a=b\\'c'");
        assertThat(PgDumpBackuper.connectionString(PostgresUrl.parse("jdbc:postgresql://db1/"), endpoint))
                .isEqualTo("dbname='app'");
    }

    @Test
    void badUrlsSayWhatIsWrong() {
        assertThatThrownBy(() -> PostgresUrl.parse("jdbc:mariadb://db1/shop"))
                .hasMessageContaining("not a PostgreSQL JDBC URL");
        assertThatThrownBy(() -> PostgresUrl.parse("jdbc:postgresql://db1:99999/shop"))
                .hasMessageContaining("port '99999'");
        assertThatThrownBy(() -> PostgresUrl.parse("jdbc:postgresql://db1:x/shop"))
                .hasMessageContaining("port 'x'");
        assertThatThrownBy(() -> PostgresUrl.parse("jdbc:postgresql://db1"))
                .hasMessageContaining("no '/' after the host list");
        assertThatThrownBy(() -> PostgresUrl.parse("jdbc:postgresql://[::1/shop"))
                .hasMessageContaining("unclosed '['");
    }
}
