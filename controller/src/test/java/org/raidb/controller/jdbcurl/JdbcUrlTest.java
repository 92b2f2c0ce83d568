package org.raidb.controller.jdbcurl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.raidb.controller.jdbcurl.JdbcUrl.Parameter;

/** What the controller reads in a JDBC URL before connecting, and what it shows of one. */
class JdbcUrlTest {

    @Test
    void parametersAreFoundInEveryDriversSyntax() {
        assertThat(JdbcUrl.parse("jdbc:postgresql://db:5432/shop?ssl=true&sslmode=require")
                        .parameters())
                .containsExactly(new Parameter("ssl", "true"), new Parameter("sslmode", "require"));
        assertThat(JdbcUrl.parse("jdbc:h2:mem:x;MODE=PostgreSQL;INIT=RUNSCRIPT FROM 'a.sql'")
                        .parameters())
                .containsExactly(new Parameter("MODE", "PostgreSQL"), new Parameter("INIT", "RUNSCRIPT FROM 'a.sql'"));
        assertThat(JdbcUrl.parse("jdbc:mariadb://address=(host=db)(port=3306)/shop?permitMysqlScheme")
                        .parameters())
                .extracting(Parameter::key)
                .containsExactly("host", "port", "/shop", "permitMysqlScheme");
        assertThat(JdbcUrl.parse("jdbc:postgresql://db/shop? socketFactory =x").parameters())
                .containsExactly(new Parameter("socketFactory", "x"));
    }

    @Test
    void aPercentEncodedNameIsAlsoReadDecoded() {
        Parameter encoded = JdbcUrl.parse("jdbc:postgresql://db/shop?socket%46actory=x")
                .parameters()
                .get(0);
        assertThat(encoded.names()).containsExactly("socket%46actory", "socketFactory");
        Parameter badEncoding =
                JdbcUrl.parse("jdbc:postgresql://db/shop?a%zz=x").parameters().get(0);
        assertThat(badEncoding.names()).containsExactly("a%zz");
    }

    @Test
    void theFamilyComesFromThePrefixWhateverItsCase() {
        assertThat(JdbcUrl.parse("jdbc:postgresql://db/shop").family()).contains(DriverFamily.POSTGRESQL);
        assertThat(JdbcUrl.parse("jdbc:mysql://db/shop").family()).contains(DriverFamily.MARIADB);
        assertThat(JdbcUrl.parse("jdbc:mariadb:sequential://db/shop").family()).contains(DriverFamily.MARIADB);
        assertThat(JdbcUrl.parse("JDBC:H2:mem:x").family()).contains(DriverFamily.H2);
        assertThat(JdbcUrl.parse("jdbc:raidb://c1,c2/shop").family()).contains(DriverFamily.RAIDB);
        assertThat(JdbcUrl.parse("jdbc:oracle:thin:@db:1521/shop").family()).isEmpty();
    }

    @Test
    void passwordsAreHiddenWhereverTheyAre() {
        assertThat(JdbcUrl.withoutSecrets("jdbc:postgresql://db:5432/shop?user=u&password=s3cret&ssl=true"))
                .isEqualTo("jdbc:postgresql://db:5432/shop?user=u&password=***&ssl=true");
        assertThat(JdbcUrl.withoutSecrets("jdbc:postgresql://db/shop?sslpassword=k3y&PASSWORD=s3cret"))
                .isEqualTo("jdbc:postgresql://db/shop?sslpassword=***&PASSWORD=***");
        assertThat(JdbcUrl.withoutSecrets("jdbc:mariadb://db/shop?keyStorePassword=k&pwd=p"))
                .isEqualTo("jdbc:mariadb://db/shop?keyStorePassword=***&pwd=***");
        assertThat(JdbcUrl.withoutSecrets("jdbc:h2:tcp://db/shop;PASSWORD=s3cret;MODE=MySQL"))
                .isEqualTo("jdbc:h2:tcp://db/shop;PASSWORD=***;MODE=MySQL");
        assertThat(JdbcUrl.withoutSecrets("jdbc:mariadb://root:s3cret@db:3306/shop"))
                .isEqualTo("jdbc:mariadb://root:***@db:3306/shop");
        assertThat(JdbcUrl.withoutSecrets("jdbc:postgresql://127.0.0.1:5432/shop"))
                .isEqualTo("jdbc:postgresql://127.0.0.1:5432/shop");
    }
}
