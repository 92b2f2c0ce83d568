package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The call escape read from lexer tokens: literals, quoted names and comments hold no syntax. */
class CallEscapeTest {

    @Test
    void parenthesesAndCommasInLiteralsAndQuotedNames() throws SQLException {
        CallEscape call = CallEscape.parse("{call f(')', \"a,b\", $$(,$$, ?)}");
        assertThat(call.parameterCount()).isEqualTo(1);
        assertThat(call.toSql(Set.of())).isEqualTo("select * from f(')', \"a,b\", $$(,$$, ?)");
        assertThat(CallEscape.parse("{call \"My Schema\" . \"Func\"(?)}").toSql(Set.of()))
                .isEqualTo("select * from \"My Schema\".\"Func\"(?)");
    }

    @Test
    void spacesCommentsAndAFinalSemicolon() throws SQLException {
        assertThat(CallEscape.parse("{ ? = call f ( ? ) } ;").toSql(Set.of())).isEqualTo("select f(?)");
        assertThat(CallEscape.parse("{call f(?) /* why */}").toSql(Set.of())).isEqualTo("select * from f(?)");
        assertThat(CallEscape.parse("{call f(g(?, ?), ?)}").parameterCount()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{call}",
                "{call f(?) x}",
                "{call f(?}",
                "{? call f}",
                "{fn f()}",
                "{call f}; select 1",
                "{call f(')'}",
                "{? = call f(?)}}"
            })
    void malformedEscapesAreSyntaxErrors(String sql) {
        assertThatThrownBy(() -> CallEscape.parse(sql))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42601"));
    }

    @Test
    void deeplyNestedFunctionEscapesAreRefusedNotAStackOverflow() {
        String sql = "SELECT " + "{fn ucase(".repeat(50_000) + "x" + ")}".repeat(50_000);
        assertThatThrownBy(() -> JdbcEscapes.translate(sql))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("nested")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42601"));
    }

    @Test
    void nestedFunctionEscapesWithinTheLimitAreTranslated() throws SQLException {
        assertThat(JdbcEscapes.translate("SELECT " + "{fn ucase(".repeat(50) + "x" + ")}".repeat(50)))
                .isEqualTo("SELECT " + "upper(".repeat(50) + "x" + ")".repeat(50));
    }
}
