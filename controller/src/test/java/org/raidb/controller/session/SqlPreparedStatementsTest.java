package org.raidb.controller.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** How an EXECUTE becomes its statement: which texts are taken, and where each argument goes. */
class SqlPreparedStatementsTest {
    private final SqlPreparedStatements prepared = new SqlPreparedStatements();

    @Test
    void argumentsTakeTheirParametersPlacesAndTheDeclaredTypes() throws SQLException {
        prepared.prepare("PREPARE Two (int, text) AS SELECT $2 || '$1', $1, $1 + 1 /* $2 */ ;");
        assertThat(prepared.expand("execute two (f(1, 2), 'a,b')", false))
                .isEqualTo("SELECT CAST(('a,b') AS text) || '$1', CAST((f(1, 2)) AS int), CAST((f(1, 2)) AS int) + 1"
                        + " /* $2 */");
        prepared.prepare("PREPARE \"Many\" AS SELECT $10, $1, ARRAY[$2]");
        assertThat(prepared.expand("EXECUTE \"Many\"(1, ARRAY[2, 3], 3, 4, 5, 6, 7, 8, 9, now())", false))
                .isEqualTo("SELECT (now()), (1), ARRAY[(ARRAY[2, 3])]");
        assertThat(prepared.statementOf("EXECUTE two(1, 'x')")).startsWith("SELECT $2");
    }

    @Test
    void onlyStatementPreparesAreTaken() {
        assertThat(SqlPreparedStatements.isPrepare("PREPARE TRANSACTION 'gid-1'"))
                .isFalse();
        assertThat(SqlPreparedStatements.isPrepare("  prepare p AS SELECT 1")).isTrue();
        assertThat(SqlPreparedStatements.isPrepare("/* c */ PREPARE p (int) AS SELECT $1"))
                .isTrue();
        assertThat(SqlPreparedStatements.isExecute("EXECUTED")).isFalse();
        assertThat(SqlPreparedStatements.isExecute("EXECUTE p")).isTrue();
    }

    @Test
    void deallocateEndsOneOrAll() throws SQLException {
        prepared.prepare("PREPARE a AS SELECT 1");
        prepared.prepare("PREPARE b AS SELECT 2");
        assertThat(prepared.deallocate("DEALLOCATE PREPARE a")).isTrue();
        assertThat(prepared.deallocate("DEALLOCATE a")).isFalse();
        assertThat(SqlPreparedStatements.deallocatedName("DEALLOCATE PREPARE \"X\""))
                .isEqualTo("X");
        assertThat(prepared.deallocate("DEALLOCATE ALL")).isTrue();
        assertThatThrownBy(() -> prepared.expand("EXECUTE b", false))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("26000"));
    }
}
