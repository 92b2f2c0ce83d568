package org.raidb.controller.determinism;

import static org.assertj.core.api.Assertions.assertThat;

import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeterminismLimitWithoutOrderTest {

    private static Statement parse(String sql) throws Exception {
        return CCJSqlParserUtil.parse(sql);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "UPDATE jobs SET owner = 'w1' WHERE owner IS NULL LIMIT 10",
                "UPDATE jobs SET owner = ? LIMIT ?",
                "DELETE FROM jobs WHERE done LIMIT 100",
            })
    void refused(String sql) throws Exception {
        assertThat(LimitWithoutOrder.problem(parse(sql)))
                .hasValueSatisfying(message -> assertThat(message)
                        .contains("LIMIT without ORDER BY")
                        .contains("different rows on each backend")
                        .contains("add an ORDER BY on a unique key, or remove the LIMIT"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "UPDATE jobs SET owner = 'w1' WHERE owner IS NULL ORDER BY id LIMIT 10",
                "DELETE FROM jobs WHERE done ORDER BY id LIMIT 100",
                "UPDATE jobs SET owner = 'w1'",
                "DELETE FROM jobs",
                "INSERT INTO jobs VALUES (1)",
                "SELECT * FROM jobs LIMIT 1",
            })
    void accepted(String sql) throws Exception {
        assertThat(LimitWithoutOrder.problem(parse(sql))).isEmpty();
    }
}
