package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlTextTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '~',
            value = {
                "select 1|0",
                "select ? , ?|2",
                "select '?' , ?|1",
                "select 'it''s ?', ?|1",
                "select E'\\' ?', ?|1",
                "select \"col?\" from t where a = ?|1",
                "select 1 -- what?\\n, ?|1",
                "select /* ? /* nested ? */ ? */ ?|1",
                "select $$ ? $$, $tag$ ?$$? $tag$, ?|1",
                "select $1, ?|1",
                "select a ?? 'k', ?|1",
                "select x from t where a = ? and b in (?, ?)|3",
            })
    void countsPlaceholdersOutsideLiteralsAndComments(String sql, int expected) {
        assertThat(SqlText.countParameters(sql.replace("\\n", "\n"))).isEqualTo(expected);
    }

    @Test
    void splitsArgumentsOnTopLevelCommas() {
        assertThat(SqlText.splitTopLevel("?, f(a, b), 'x,y', ?")).containsExactly("?", " f(a, b)", " 'x,y'", " ?");
    }

    @Test
    void translatesCallWithReturnValue() throws SQLException {
        CallEscape call = CallEscape.parse("{? = call add(?, ?)}");
        assertThat(call.returnsValue()).isTrue();
        assertThat(call.parameterCount()).isEqualTo(3);
        assertThat(call.toSql(Set.of())).isEqualTo("select add(?, ?)");
    }

    @Test
    void translatesProcedureCallAndDropsOutOnlyArguments() throws SQLException {
        CallEscape call = CallEscape.parse(" { CALL public.divide(?, 'x,y', ?) } ");
        assertThat(call.returnsValue()).isFalse();
        assertThat(call.parameterCount()).isEqualTo(2);
        assertThat(call.toSql(Set.of())).isEqualTo("select * from public.divide(?, 'x,y', ?)");
        assertThat(call.isLoneArgument(2)).isTrue();
        assertThat(call.toSql(Set.of(2))).isEqualTo("select * from public.divide(?, 'x,y')");
    }

    @Test
    void translatesCallWithoutArguments() throws SQLException {
        assertThat(CallEscape.parse("{call now}").toSql(Set.of())).isEqualTo("select * from now()");
        assertThat(CallEscape.parse("{?= call now()}").toSql(Set.of())).isEqualTo("select now()");
    }

    @Test
    void leavesOtherSqlAloneAndRejectsBrokenEscapes() throws SQLException {
        assertThat(CallEscape.parse("select f(?)")).isNull();
        assertThatThrownBy(() -> CallEscape.parse("{call f(?)"))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42601"));
    }
}
