package org.raidb.controller.defaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.raidb.controller.determinism.SqlDialect;

/** INSERTs get the volatile defaults they rely on written in, and nothing else changes in their text. */
class InsertDefaultsTest {
    /** t(id, at DEFAULT now(), tok DEFAULT gen_random_uuid(), name DEFAULT 'x'): name's default is deterministic. */
    private static final TableColumns T = new TableColumns(
            "t",
            List.of("id", "at", "tok", "name"),
            List.of(new VolatileColumn("at", "now()", null), new VolatileColumn("tok", "gen_random_uuid()", null)),
            false);
    /** when(id, at DEFAULT now()): a default that gives every row of a statement the same value. */
    private static final TableColumns WHEN =
            new TableColumns("when", List.of("id", "at"), List.of(new VolatileColumn("at", "now()", null)), false);

    private static String fill(String sql) throws SQLException {
        VolatileCatalog catalog = new VolatileCatalog("shop", false);
        catalog.merge(new CatalogSnapshot(Map.of("t", T, "when", WHEN), List.of()));
        return new VolatileDefaults(catalog).fill(sql, SqlDialect.POSTGRESQL, null);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
      INSERT INTO t(id) VALUES (1)                     | INSERT INTO t(id, "at", "tok") VALUES (1, now(), gen_random_uuid())
      insert into T (id, name) values (1, 'a'), (2, 'b') | insert into T (id, name, "at", "tok") values (1, 'a', now(), gen_random_uuid()), (2, 'b', now(), gen_random_uuid())
      INSERT INTO t VALUES (1)                         | INSERT INTO t ("id", "at", "tok") VALUES (1, now(), gen_random_uuid())
      INSERT INTO t VALUES (1, DEFAULT)                | INSERT INTO t ("id", "at", "tok") VALUES (1, now(), gen_random_uuid())
      INSERT INTO t (id, at, tok) VALUES (1, DEFAULT, ?) | INSERT INTO t (id, at, tok) VALUES (1, now(), ?)
      INSERT INTO t DEFAULT VALUES RETURNING *          | INSERT INTO t ("at", "tok") VALUES (now(), gen_random_uuid()) RETURNING *
      INSERT INTO public.t AS x (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at RETURNING at, tok | INSERT INTO public.t AS x (id, "at", "tok") VALUES (1, now(), gen_random_uuid()) ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at RETURNING at, tok
      INSERT INTO t (id) VALUES (1) ON CONFLICT DO NOTHING | INSERT INTO t (id, "at", "tok") VALUES (1, now(), gen_random_uuid()) ON CONFLICT DO NOTHING
      WITH n AS (SELECT 1) INSERT INTO t (id) VALUES ((SELECT 2)) | WITH n AS (SELECT 1) INSERT INTO t (id, "at", "tok") VALUES ((SELECT 2), now(), gen_random_uuid())
      INSERT INTO t (id, name) VALUES (1, 'VALUES (2), (3) DEFAULT') -- ) | INSERT INTO t (id, name, "at", "tok") VALUES (1, 'VALUES (2), (3) DEFAULT', now(), gen_random_uuid()) -- )
      INSERT INTO t (id) OVERRIDING SYSTEM VALUE VALUES (1) | INSERT INTO t (id, "at", "tok") OVERRIDING SYSTEM VALUE VALUES (1, now(), gen_random_uuid())
      """)
    void theDefaultsAnInsertReliesOnAreWrittenIn(String sql, String filled) throws SQLException {
        assertThat(fill(sql)).isEqualTo(filled);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
      INSERT INTO t (id, at, tok) VALUES (1, now(), ?)
      INSERT INTO t VALUES (1, now(), ?, 'n')
      INSERT INTO other (id) VALUES (1)
      UPDATE t SET name = 'a'
      DELETE FROM t
      SELECT * FROM t
      """)
    void aWriteThatReliesOnNoVolatileDefaultIsTheSameString(String sql) throws SQLException {
        assertThat(fill(sql)).isSameAs(sql);
    }

    @Test
    void insertSelectGetsADefaultThatGivesEveryRowTheSameValueInEachSelectList() throws SQLException {
        assertThat(fill("INSERT INTO \"when\" (id) SELECT x FROM s WHERE x > 1"))
                .isEqualTo("INSERT INTO \"when\" (id, \"at\") SELECT x, now() FROM s WHERE x > 1");
        assertThat(fill("INSERT INTO \"when\" SELECT x FROM s UNION ALL SELECT 1 AS from ORDER BY 1"))
                .isEqualTo(
                        "INSERT INTO \"when\" (\"id\", \"at\") SELECT x, now() FROM s UNION ALL SELECT 1 AS from, now() ORDER BY 1");
        assertThat(
                        fill(
                                "INSERT INTO \"when\" (id) SELECT s.x FROM s JOIN u ON u.x = s.x UNION SELECT 2 ON CONFLICT DO NOTHING"))
                .isEqualTo(
                        "INSERT INTO \"when\" (id, \"at\") SELECT s.x, now() FROM s JOIN u ON u.x = s.x UNION SELECT 2, now()"
                                + " ON CONFLICT DO NOTHING");
        assertThat(fill("INSERT INTO \"when\" (id) SELECT generate_series(1, 20)"))
                .isEqualTo("INSERT INTO \"when\" (id, \"at\") SELECT generate_series(1, 20), now()");
        assertThat(fill("INSERT INTO \"when\" (id) (SELECT DISTINCT ON (x) x FROM s)"))
                .isEqualTo("INSERT INTO \"when\" (id, \"at\") (SELECT DISTINCT ON (x) x, now() FROM s)");
    }

    @Test
    void insertSelectRelyingOnADefaultWithAValuePerRowIsRefused() {
        assertThatThrownBy(() -> fill("INSERT INTO t (id, at) SELECT x, now() FROM s"))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("tok")
                .hasMessageContaining("gen_random_uuid()")
                .hasMessageContaining("VALUES")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
    }

    @Test
    void insertSelectStarWithoutColumnListIsRefusedBecauseTheColumnsItFillsAreUnknown() {
        assertThatThrownBy(() -> fill("INSERT INTO \"when\" SELECT * FROM s"))
                .hasMessageContaining("name the columns")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
    }

    @Test
    void anInsertWhoseColumnsCannotBeReadIsRefusedWhenTheTableHasVolatileDefaults() {
        assertThatThrownBy(() -> fill("INSERT INTO t (id, data[1]) VALUES (1, 2)"))
                .hasMessageContaining("now()")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
    }

    @Test
    void aMergeWhoseInsertActionLeavesAVolatileDefaultOutIsRefused() throws SQLException {
        assertThatThrownBy(() -> fill("MERGE INTO t USING s ON s.id = t.id WHEN MATCHED THEN UPDATE SET name = s.name"
                        + " WHEN NOT MATCHED THEN INSERT (id, at) VALUES (s.id, now())"))
                .hasMessageContaining("tok")
                .hasMessageContaining("INSERT action")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
        String naming =
                "MERGE INTO t USING s ON s.id = t.id WHEN NOT MATCHED THEN INSERT (id, at, tok) VALUES (s.id, now(), ?)";
        assertThat(fill(naming)).isSameAs(naming);
        String updating = "MERGE INTO t USING s ON s.id = t.id WHEN MATCHED THEN UPDATE SET name = s.name";
        assertThat(fill(updating)).isSameAs(updating);
    }

    @Test
    void mariaDbFormsGetTheirDefaultsAndOnUpdateColumns() throws SQLException {
        TableColumns u = new TableColumns(
                "u",
                List.of("id", "v", "created", "upd"),
                List.of(
                        new VolatileColumn("created", "current_timestamp()", null),
                        new VolatileColumn("upd", "current_timestamp(3)", "current_timestamp(3)")),
                true);
        VolatileCatalog catalog = new VolatileCatalog("shop", false);
        catalog.merge(new CatalogSnapshot(Map.of("u", u), List.of()));
        VolatileDefaults defaults = new VolatileDefaults(catalog);
        assertThat(defaults.fill("INSERT INTO `U` () VALUES ()", SqlDialect.MARIADB, null))
                .isEqualTo("INSERT INTO `U` (`created`, `upd`) VALUES (current_timestamp(), current_timestamp(3))");
        assertThat(defaults.fill("INSERT IGNORE u SET id = 1, V = 'a\\'b'", SqlDialect.MARIADB, null))
                .isEqualTo(
                        "INSERT IGNORE u SET id = 1, V = 'a\\'b', `created` = current_timestamp(), `upd` = current_timestamp(3)");
        assertThat(defaults.fill(
                        "INSERT INTO u (id, CREATED) VALUES (1, NOW()) ON DUPLICATE KEY UPDATE v = 2",
                        SqlDialect.MARIADB,
                        null))
                .isEqualTo("INSERT INTO u (id, CREATED, `upd`) VALUES (1, NOW(), current_timestamp(3))"
                        + " ON DUPLICATE KEY UPDATE v = 2, `upd` = current_timestamp(3)");
        assertThat(defaults.fill("UPDATE u SET v = 2 WHERE id = 1", SqlDialect.MARIADB, null))
                .isEqualTo("UPDATE u SET v = 2, `upd` = current_timestamp(3) WHERE id = 1");
        assertThat(defaults.fill("UPDATE LOW_PRIORITY u AS x SET x.v = 2, x.UPD = NULL", SqlDialect.MARIADB, null))
                .isEqualTo("UPDATE LOW_PRIORITY u AS x SET x.v = 2, x.UPD = NULL");
        assertThatThrownBy(
                        () -> defaults.fill("UPDATE u JOIN w ON w.id = u.id SET u.v = w.v", SqlDialect.MARIADB, null))
                .hasMessageContaining("upd")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
    }
}
