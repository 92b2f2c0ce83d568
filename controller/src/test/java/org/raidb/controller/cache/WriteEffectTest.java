package org.raidb.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.raidb.controller.analysis.ReadColumns;
import org.raidb.controller.analysis.SqlAnalyzer;

/** What the analysis tells the cache: the columns a query uses, and what a write may change. */
class WriteEffectTest {
    private final SqlAnalyzer analyzer = new SqlAnalyzer();

    private WriteEffect effect(String sql) {
        return WriteEffect.of(analyzer.analyze(sql), sql);
    }

    @Test
    void aQueryUsesTheColumnsItNamesAnywhere() {
        ReadColumns c = analyzer.readColumns(
                "SELECT i.name FROM items i WHERE i.id = ? AND note <> 'stock' /* stock */ ORDER BY \"Price\"");
        // Every identifier counts (keywords and aliases too: harmless); literals and comments do not.
        assertThat(c.columns()).contains("name", "id", "price", "note").doesNotContain("stock");
        assertThat(c.allColumns()).isFalse();
        assertThat(c.cacheable()).isTrue();
        assertThat(c.uses(Set.of("stock"))).isFalse();
        assertThat(c.uses(Set.of("name"))).isTrue();
        assertThat(analyzer.readColumns("SELECT a FROM t NATURAL JOIN u").allColumns())
                .isTrue();
    }

    @Test
    void aStarUsesEveryColumnAndCountStarNone() {
        assertThat(analyzer.readColumns("SELECT * FROM items").allColumns()).isTrue();
        assertThat(analyzer.readColumns("SELECT t.* FROM items t").allColumns()).isTrue();
        ReadColumns count = analyzer.readColumns("SELECT count(*) FROM items");
        assertThat(count.allColumns()).isFalse();
        assertThat(count.columns()).containsExactlyInAnyOrder("select", "count", "from", "items");
        assertThat(count.cacheable()).isTrue();
    }

    @Test
    void aCallOfAnUnknownFunctionOrAnUnreadableTextIsNotCacheable() {
        assertThat(analyzer.readColumns("SELECT stock_of(id) FROM items").cacheable())
                .isFalse();
        assertThat(analyzer.readColumns("SELECT FROM WHERE (").cacheable()).isFalse();
    }

    @Test
    void anUpdateChangesItsSetColumnsOnly() {
        WriteEffect e = effect("UPDATE public.items SET \"Stock\" = stock - 1 WHERE id = 3");
        assertThat(e.everything()).isFalse();
        assertThat(e.tables()).isEmpty();
        assertThat(e.updatedTable()).isEqualTo("items");
        assertThat(e.updatedColumns()).containsExactly("stock");
    }

    @Test
    void insertsDeletesAndDdlChangeWholeTables() {
        assertThat(effect("INSERT INTO items (id) VALUES (1)").tables()).containsExactly("items");
        assertThat(effect("DELETE FROM items WHERE id = 1").tables()).containsExactly("items");
        assertThat(effect("TRUNCATE items").tables()).contains("items");
        assertThat(effect("ALTER TABLE items ADD COLUMN x int").tables()).contains("items");
    }

    @Test
    void unknownShapesChangeEverythingAndTemporaryTablesAreNoted() {
        assertThat(effect("DO $$ BEGIN PERFORM 1; END $$").everything()).isTrue();
        assertThat(effect("CREATE TEMPORARY TABLE scratch (id int)").temporaryTable())
                .isEqualTo("scratch");
        assertThat(effect("CREATE TABLE kept (id int)").temporaryTable()).isNull();
    }
}
