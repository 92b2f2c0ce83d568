package org.raidb.controller.jdbcurl;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which JDBC URLs the controller connects with, from the configuration file and from the admin API. */
class BackendUrlPolicyTest {
    private final BackendUrlPolicy file = BackendUrlPolicy.configurationFile();
    private final BackendUrlPolicy admin = BackendUrlPolicy.adminApi(false);
    private final BackendUrlPolicy adminWithH2 = BackendUrlPolicy.adminApi(true);

    @ParameterizedTest
    @ValueSource(
            strings = {
                "jdbc:postgresql://db:5432/shop",
                "jdbc:postgresql://db1:5432,db2:5432/shop?targetServerType=primary&sslmode=verify-full&ApplicationName=raidb",
                "jdbc:mariadb://db:3306/shop?useServerPrepStmts=true&allowLocalInfile=false&sessionVariables=sql_mode='ANSI'",
                "jdbc:mysql://db:3306/shop?permitMysqlScheme",
                "jdbc:mariadb://db/shop?serverSslCert=-----BEGIN CERTIFICATE-----MIIB",
                "jdbc:raidb://c1:25322,c2:25322/shop?connectTimeout=5"
            })
    void supportedDriversWithOrdinaryOptionsPassEverywhere(String url) {
        assertThatCode(() -> file.check(url)).doesNotThrowAnyException();
        assertThatCode(() -> admin.check(url)).doesNotThrowAnyException();
    }

    @Test
    void h2IsForTheConfigurationFileUnlessItsOwnerAllowsAdmins() throws Exception {
        String url = "jdbc:h2:mem:shop;MODE=PostgreSQL;TRACE_LEVEL_FILE=0";
        file.check(url);
        adminWithH2.check(url);
        assertThatThrownBy(() -> admin.check(url))
                .isInstanceOf(RefusedUrlException.class)
                .hasMessageContaining("H2 URLs (jdbc:h2:) are refused from the admin API")
                .hasMessageContaining("<controller allowH2BackendsFromAdmin=\"true\">")
                .hasMessageContaining("PostgreSQL (jdbc:postgresql:)");
    }

    @Test
    void otherDriversAreRefusedNamingTheAllowedOnes() {
        assertThatThrownBy(() -> file.check("jdbc:oracle:thin:scott/tiger@db:1521/shop"))
                .hasMessageContaining(
                        "JDBC URL 'jdbc:oracle:thin:scott/tiger@db:1521/shop' is refused: backends are reached with"
                                + " PostgreSQL (jdbc:postgresql:), MariaDB or MySQL (jdbc:mariadb:, jdbc:mysql:), RAIDb (jdbc:raidb:), H2");
        assertThatThrownBy(() -> admin.check("jdbc:derby:memory:x;create=true"))
                .hasMessageContaining("and H2 (jdbc:h2:) from the configuration file");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "jdbc:h2:mem:x;INIT=RUNSCRIPT FROM '/tmp/evil.sql'",
                "jdbc:h2:mem:x;init=RUNSCRIPT FROM '/tmp/evil.sql'",
                "jdbc:h2:mem:x;MODE=MySQL;Init=CREATE ALIAS X AS 'void x(){}'\\;CALL X()",
                "jdbc:h2:mem:x; INIT =CALL 1",
                "jdbc:h2:mem:x;\u0131n\u0131t=CALL 1", // dotless i: H2 upper-cases it to INIT
                "jdbc:h2:file:/tmp/x;TRACE_LEVEL_FILE=3",
                "jdbc:h2:mem:x;DATABASE_EVENT_LISTENER=com.evil.Listener",
                "jdbc:postgresql://db/shop?socketFactory=com.evil.Factory",
                "jdbc:postgresql://db/shop?SOCKETFACTORY=com.evil.Factory",
                "jdbc:postgresql://db/shop?ssl=true&sslfactory=org.postgresql.ssl.NonValidatingFactory",
                "jdbc:postgresql://db/shop?socket%46actory=com.evil.Factory",
                "jdbc:postgresql://db/shop?authenticationPluginClassName=com.evil.Plugin",
                "jdbc:postgresql://db/shop?loggerFile=/etc/cron.d/x&loggerLevel=TRACE",
                "jdbc:postgresql://db/shop;socketFactory=com.evil.Factory",
                "jdbc:mariadb://db/shop?socketFactory=com.evil.Factory",
                "jdbc:mariadb://db/shop?allowLocalInfile=true",
                "jdbc:mysql://db/shop?autoDeserialize=true",
                "jdbc:mysql://db/shop?queryInterceptors=com.evil.Interceptor",
                "jdbc:mysql://db/shop?allowLoadLocalInfileInPath=/"
            })
    void optionsThatRunCodeOrTouchFilesAreRefusedEvenFromTheFile(String url) {
        assertThatThrownBy(() -> file.check(url))
                .isInstanceOf(RefusedUrlException.class)
                .hasMessageContaining("JDBC URL parameter '")
                .hasMessageContaining("is refused: with the")
                .hasMessageContaining("docs/admin.md, section Security");
        assertThatThrownBy(() -> adminWithH2.check(url)).isInstanceOf(RefusedUrlException.class);
    }

    @Test
    void theRefusalNamesTheParameterAndWhy() {
        assertThatThrownBy(() -> file.check("jdbc:h2:mem:x;INIT=RUNSCRIPT FROM 'x'"))
                .hasMessage(
                        "JDBC URL parameter 'INIT' is refused: with the H2 driver it runs SQL when H2 connects, and through"
                                + " it Java code inside the controller. Remove it (docs/admin.md, section Security, lists the refused"
                                + " parameters)");
        assertThatThrownBy(() -> file.check("jdbc:postgresql://db/shop?socket%46actory=x"))
                .hasMessageStartingWith(
                        "JDBC URL parameter 'socketFactory' is refused: with the PostgreSQL driver it makes");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "jdbc:postgresql://db/shop?sslmode=verify-full&sslrootcert=/etc/ssl/other.pem",
                "jdbc:postgresql://db/shop?sslcert=/root/.postgresql/postgresql.crt&sslkey=/root/.postgresql/postgresql.pk8",
                "jdbc:postgresql:///shop?service=shop_primary",
                "jdbc:mariadb://db/shop?serverSslCert=/etc/ssl/ca.pem",
                "jdbc:mariadb://db/shop?keyStore=/root/client.jks",
                "jdbc:mariadb://localhost/shop?localSocket=/run/mysqld/mysqld.sock",
                "jdbc:mariadb://db/shop?credentialType=ENV",
                "jdbc:h2:mem:x;AUTO_SERVER=TRUE"
            })
    void optionsThatReadTheControllersFilesOrCredentialsAreTheFileOwnersOnly(String url) {
        assertThatCode(() -> file.check(url)).doesNotThrowAnyException();
        assertThatThrownBy(() -> adminWithH2.check(url))
                .isInstanceOf(RefusedUrlException.class)
                .hasMessageContaining("is refused from the admin API")
                .hasMessageContaining("name this backend there");
    }

    @Test
    void anOptionSetToItsOffValueIsHarmless() throws Exception {
        file.check("jdbc:mariadb://db/shop?allowLocalInfile=false");
        file.check("jdbc:mysql://db/shop?autoDeserialize=FALSE");
        adminWithH2.check("jdbc:h2:mem:x;TRACE_LEVEL_FILE=0;TRACE_LEVEL_SYSTEM_OUT=0");
        assertThatThrownBy(() -> file.check("jdbc:h2:mem:x;TRACE_LEVEL_FILE=0;TRACE_LEVEL_SYSTEM_OUT=1"))
                .hasMessageContaining("'TRACE_LEVEL_SYSTEM_OUT'");
    }

    @Test
    void parameterNamesOutsideAsciiAreRefused() {
        // A fullwidth or lookalike letter that some driver's case folding might turn into an option name.
        assertThatThrownBy(() -> file.check("jdbc:postgresql://db/shop?socket\uFF26actory=x"))
                .hasMessageContaining("driver option names are plain ASCII");
    }

    @Test
    void optionsOfOneDriverMeanNothingToAnother() throws Exception {
        // pgjdbc ignores H2's INIT; refusing it there would only puzzle.
        file.check("jdbc:postgresql://db/shop?INIT=x");
        file.check("jdbc:raidb://c1/shop?socketFactory=x");
    }
}
