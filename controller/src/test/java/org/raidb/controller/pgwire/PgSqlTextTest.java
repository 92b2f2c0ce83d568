package org.raidb.controller.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** PostgreSQL's text for the request path: $n markers, operators, statement splitting, command tags. */
class PgSqlTextTest {
    @Test
    void numberedParametersBecomeMarkersInTheirOrder() {
        PgSqlText t = PgSqlText.of("SELECT $2, '$1', \"$1\", $1 /* $3 */, $$ $1 $$, $2 -- $4");
        assertThat(t.sql()).isEqualTo("SELECT ?, '$1', \"$1\", ? /* $3 */, $$ $1 $$, ? -- $4");
        assertThat(t.markers()).containsExactly(2, 1, 2);
        assertThat(t.parameterCount()).isEqualTo(2);
    }

    @Test
    void aQuestionMarkOperatorIsEscapedForTheBackendsDriver() {
        PgSqlText t = PgSqlText.of("SELECT doc ? 'key' FROM d WHERE id = $1");
        assertThat(t.sql()).isEqualTo("SELECT doc ?? 'key' FROM d WHERE id = ?");
        assertThat(t.markers()).containsExactly(1);
    }

    @Test
    void aSimpleQuerySplitsAtSemicolonsInCodeOnly() {
        assertThat(PgSqlText.split("BEGIN; INSERT INTO t VALUES (';'); -- x;\n COMMIT;;  "))
                .containsExactly("BEGIN", "INSERT INTO t VALUES (';')", "-- x;\n COMMIT");
        assertThat(PgSqlText.split("  -- only a comment\n ;")).isEmpty();
        assertThat(PgSqlText.split("CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql"))
                .hasSize(1);
    }

    @Test
    void commandTagsArePostgresqlsOwn() {
        assertThat(PgCommandTag.of("insert into t values (1)", 1, false)).isEqualTo("INSERT 0 1");
        assertThat(PgCommandTag.of("UPDATE t SET v = 1", 3, false)).isEqualTo("UPDATE 3");
        assertThat(PgCommandTag.of("DELETE FROM t", 0, false)).isEqualTo("DELETE 0");
        assertThat(PgCommandTag.of("SELECT * FROM t", 7, true)).isEqualTo("SELECT 7");
        assertThat(PgCommandTag.of("WITH x AS (SELECT 1) DELETE FROM t", 2, false))
                .isEqualTo("DELETE 2");
        assertThat(PgCommandTag.of("WITH x AS (SELECT 1) SELECT * FROM x", 1, true))
                .isEqualTo("SELECT 1");
        assertThat(PgCommandTag.of("INSERT INTO t VALUES (1) RETURNING id", 1, true))
                .isEqualTo("INSERT 0 1");
        assertThat(PgCommandTag.of("create unique index i on t (v)", 0, false)).isEqualTo("CREATE INDEX");
        assertThat(PgCommandTag.of("CREATE OR REPLACE VIEW v AS SELECT 1", 0, false))
                .isEqualTo("CREATE VIEW");
        assertThat(PgCommandTag.of("drop table t", 0, false)).isEqualTo("DROP TABLE");
        assertThat(PgCommandTag.of("CREATE MATERIALIZED VIEW m AS SELECT 1", 0, false))
                .isEqualTo("CREATE MATERIALIZED VIEW");
        assertThat(PgCommandTag.of("begin", 0, false)).isEqualTo("BEGIN");
        assertThat(PgCommandTag.of("START TRANSACTION", 0, false)).isEqualTo("START TRANSACTION");
        assertThat(PgCommandTag.of("end", 0, false)).isEqualTo("COMMIT");
        assertThat(PgCommandTag.of("SET search_path = public", 0, false)).isEqualTo("SET");
        assertThat(PgCommandTag.of("VALUES (1), (2)", 2, true)).isEqualTo("SELECT 2");
    }
}
