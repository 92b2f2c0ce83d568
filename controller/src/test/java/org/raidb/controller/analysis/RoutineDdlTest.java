package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Function DDL of both families is recognised by its leading words, and nothing else is. */
class RoutineDdlTest {

    private static RoutineChange named(String... names) {
        return new RoutineChange(Set.of(names), false);
    }

    @Test
    void postgresqlFunctionDdl() {
        assertThat(RoutineDdl.of("create function f() returns int language sql as 'select 1'"))
                .isEqualTo(named("f"));
        assertThat(RoutineDdl.of("CREATE OR REPLACE PROCEDURE s.\"Pay\"(a int) LANGUAGE sql AS $$ $$"))
                .isEqualTo(named("pay"));
        assertThat(RoutineDdl.of("CREATE AGGREGATE my_sum (int) (sfunc = int4pl, stype = int)"))
                .isEqualTo(named("my_sum"));
        assertThat(RoutineDdl.of("ALTER FUNCTION f(int) STABLE")).isEqualTo(named("f"));
        assertThat(RoutineDdl.of("ALTER ROUTINE f RENAME TO g")).isEqualTo(named("f", "g"));
        assertThat(RoutineDdl.of("DROP FUNCTION IF EXISTS f(int, text), g(), h CASCADE"))
                .isEqualTo(named("f", "g", "h"));
        assertThat(RoutineDdl.of("ALTER EXTENSION hstore UPDATE")).isEqualTo(RoutineChange.EVERYTHING);
    }

    @Test
    void mariaDbFunctionDdl() {
        assertThat(RoutineDdl.of(
                        "CREATE DEFINER=`root`@`localhost` FUNCTION `wf`() RETURNS INT MODIFIES SQL DATA RETURN 1"))
                .isEqualTo(named("wf"));
        assertThat(RoutineDdl.of("CREATE FUNCTION IF NOT EXISTS db.wf() RETURNS INT RETURN 1"))
                .isEqualTo(named("wf"));
        assertThat(RoutineDdl.of("CREATE OR REPLACE AGGREGATE FUNCTION agg(x INT) RETURNS INT BEGIN RETURN 1; END"))
                .isEqualTo(named("agg"));
        assertThat(RoutineDdl.of("CREATE DEFINER = CURRENT_USER VIEW v AS SELECT 1"))
                .isNull();
    }

    @Test
    void otherDdlIsNoRoutineChange() {
        assertThat(RoutineDdl.of("CREATE TABLE procedure (id int)")).isNull();
        assertThat(RoutineDdl.of("DROP TABLE function")).isNull();
        assertThat(RoutineDdl.of("SELECT f()")).isNull();
        assertThat(RoutineDdl.of("CREATE FUNCTION"))
                .as("a name that cannot be read")
                .isEqualTo(RoutineChange.EVERYTHING);
    }
}
