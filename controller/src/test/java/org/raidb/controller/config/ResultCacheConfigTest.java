package org.raidb.controller.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code <resultCache>}: defaults, the values given, and each bad value refused at load with what to change. */
class ResultCacheConfigTest {
    private static String withCache(String resultCache) {
        return """
            <raidb>
              <controller port="25322" adminPort="25380"/>
              <virtualDatabase name="shop">
                <authentication>
                  <admin user="admin" password="a"/>
                  <virtualUser name="app" password="p"/>
                </authentication>
                <backend name="pg1" url="jdbc:postgresql://127.0.0.1:5433/shop" user="postgres"/>
                %s
                <raidb1/>
              </virtualDatabase>
            </raidb>
            """.formatted(resultCache);
    }

    private static ResultCacheConfig load(String resultCache) throws ConfigException {
        return ConfigLoader.load(withCache(resultCache), "raidb.xml")
                .virtualDatabase("shop")
                .resultCache();
    }

    @Test
    void noElementMeansNoCache() throws Exception {
        assertThat(load("")).isNull();
    }

    @Test
    void defaultsAreTableGranularityStrictAndBounded() throws Exception {
        assertThat(load("<resultCache/>"))
                .isEqualTo(new ResultCacheConfig(ResultCacheConfig.Granularity.TABLE, 10_000, 64L * 1024 * 1024, 0));
    }

    @Test
    void valuesGivenAreKept() throws Exception {
        assertThat(
                        load(
                                "<resultCache granularity=\"column\" maxEntries=\"50\" maxBytes=\"1048576\" relaxedStalenessMillis=\"250\"/>"))
                .isEqualTo(new ResultCacheConfig(ResultCacheConfig.Granularity.COLUMN, 50, 1_048_576, 250));
    }

    @Test
    void zeroMaxBytesIsRefused() {
        assertThatThrownBy(() -> load("<resultCache maxBytes=\"0\"/>"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("maxBytes")
                .hasMessageContaining("'0'");
    }

    @Test
    void negativeValuesAreRefused() {
        assertThatThrownBy(() -> load("<resultCache maxEntries=\"-5\"/>"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("maxEntries")
                .hasMessageContaining("'-5'");
        assertThatThrownBy(() -> load("<resultCache maxBytes=\"-1\"/>"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("maxBytes");
        assertThatThrownBy(() -> load("<resultCache relaxedStalenessMillis=\"-1\"/>"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("relaxedStalenessMillis");
    }

    @Test
    void unknownGranularityIsRefused() {
        assertThatThrownBy(() -> load("<resultCache granularity=\"row\"/>"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("granularity")
                .hasMessageContaining("'row'")
                .hasMessageContaining("table")
                .hasMessageContaining("column");
    }

    @Test
    void relaxedRulesGiveTheReadsTheyMatchTheirStalenessTheFirstMatchWinning() throws Exception {
        ResultCacheConfig c = load("<resultCache relaxedStalenessMillis=\"5\">"
                + "<relaxed pattern=\"(?i)sum\\(ol_qty\\)\" stalenessMillis=\"30000\"/>"
                + "<relaxed pattern=\"order_line\" stalenessMillis=\"100\"/></resultCache>");
        assertThat(c.relaxedRules()).hasSize(2);
        assertThat(c.stalenessMillisFor("SELECT i_id, SUM(ol_qty) FROM order_line GROUP BY i_id"))
                .isEqualTo(30_000);
        assertThat(c.stalenessMillisFor("SELECT ol_qty FROM order_line WHERE ol_o_id = 4"))
                .isEqualTo(100);
        assertThat(c.stalenessMillisFor("SELECT c_fname FROM customer WHERE c_id = 4"))
                .isEqualTo(5);
        assertThat(load("<resultCache/>").stalenessMillisFor("SELECT 1")).isZero();
    }

    @Test
    void aRelaxedRuleWithoutAPatternOrStalenessOrWithABadPatternIsRefused() {
        assertThatThrownBy(() -> load("<resultCache><relaxed pattern=\"sum(\" stalenessMillis=\"10\"/></resultCache>"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sum(")
                .hasMessageContaining("not a regular expression");
        assertThatThrownBy(() -> load("<resultCache><relaxed stalenessMillis=\"10\"/></resultCache>"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pattern");
        assertThatThrownBy(() -> load("<resultCache><relaxed pattern=\"x\"/></resultCache>"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("stalenessMillis");
        assertThatThrownBy(() -> load("<resultCache><relaxed pattern=\"x\" stalenessMillis=\"-1\"/></resultCache>"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("stalenessMillis");
    }

    @Test
    void theRecordRefusesWhatTheSchemaWould() {
        assertThatThrownBy(() -> new ResultCacheConfig(ResultCacheConfig.Granularity.TABLE, 10, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxBytes must be a positive number of bytes, got 0");
        assertThatThrownBy(() -> ResultCacheConfig.Granularity.parse("rows"))
                .hasMessageContaining("granularity must be table or column, got 'rows'");
    }
}
