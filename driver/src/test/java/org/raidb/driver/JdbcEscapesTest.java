package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The escape translation in pgjdbc's forms; EscapeSyntaxParityIT compares it with pgjdbc itself. */
class JdbcEscapesTest {

    @Test
    void functionsDatesAndJoinsAreTranslated() throws SQLException {
        assertThat(JdbcEscapes.translate("SELECT {fn ucase(name)}, {fn concat(name, 'x')} FROM t WHERE id = ?"))
                .isEqualTo("SELECT upper(name), (name|| 'x') FROM t WHERE id = ?");
        assertThat(JdbcEscapes.translate("SELECT {fn timestampadd(SQL_TSI_DAY, 3, {ts '2024-02-29 00:00:00'})}"))
                .isEqualTo("SELECT (CAST( 3||' day' as interval)+ TIMESTAMP '2024-02-29 00:00:00')");
        assertThat(JdbcEscapes.translate(
                        "SELECT {d '2024-02-29'}, {t '13:14:15'} FROM {oj a LEFT JOIN b ON a.i = b.i}"))
                .isEqualTo("SELECT DATE '2024-02-29', TIME '13:14:15' FROM a LEFT JOIN b ON a.i = b.i");
        assertThat(JdbcEscapes.translate("WHERE n LIKE 'a\\_%' {escape '\\'}"))
                .isEqualTo("WHERE n LIKE 'a\\_%' ESCAPE '\\'");
        assertThat(JdbcEscapes.translate("SELECT {FN my_fn(1, (2))}")).isEqualTo("SELECT my_fn(1, (2))");
    }

    @Test
    void literalsCommentsCallsAndPlainBracesAreLeftAlone() throws SQLException {
        String sql = "SELECT '{fn ucase(x)}', \"{d\", $$ {fn ucase(x)} $$ /* {d 'x'} */ -- {fn now()}\n";
        assertThat(JdbcEscapes.translate(sql)).isEqualTo(sql);
        assertThat(JdbcEscapes.translate("{? = call f(?)}")).isEqualTo("{? = call f(?)}");
        assertThat(JdbcEscapes.translate("SELECT x FROM t)")).isEqualTo("SELECT x FROM t)");
    }

    @Test
    void aFunctionWithTheWrongArgumentCountIsASyntaxError() {
        assertThatThrownBy(() -> JdbcEscapes.translate("SELECT {fn ucase(a, b)}"))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("ucase")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42601"));
    }

    @Test
    void nativeFormNumbersPlaceholdersPerStatement() {
        assertThat(SqlText.numberPlaceholders("select ?, ?? from t where a = '?'; select ?;"))
                .isEqualTo("select $1, ? from t where a = '?'; select $1");
    }
}
