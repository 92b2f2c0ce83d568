package org.raidb.controller.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.balancer.CreateTableRule;
import org.raidb.controller.config.ReplicationConfig.CreateTableConfig;

/**
 * The partial replication levels in the configuration: RAIDb-0/2 and the error-checking levels bind,
 * create-table rules and static placement are read, and a placement the level cannot serve is a
 * configuration error at the element to change ({@code FILE:LINE:COLUMN: …}).
 */
class PlacementConfigTest {

    /** Line 1 is {@code <raidb>}; the backends are on lines 7 to 9 (their tables on 8). */
    private static String config(String pg1Tables, String pg2Tables, String level) {
        return """
        <raidb>
          <virtualDatabase name="shop">
            <authentication>
              <admin user="admin"/>
              <virtualUser name="app"/>
            </authentication>
            <backend name="pg1" url="jdbc:postgresql://127.0.0.1:5433/shop" user="postgres">
              %s</backend>
            <backend name="pg2" url="jdbc:postgresql://127.0.0.1:5434/shop" user="postgres">%s</backend>
            %s
          </virtualDatabase>
        </raidb>
        """.formatted(pg1Tables, pg2Tables, level);
    }

    @Test
    void raidb2WithRulesAndStaticPlacementBinds() throws Exception {
        RaidbConfig c = ConfigLoader.load(
                config(
                        "<table name=\"orders\"/><table name=\"Item\"/>",
                        "<table name=\"orders\"/><table name=\"item\"/>",
                        """
        <raidb2 readPolicy="leastPending" completion="majority">
              <createTable policy="roundRobin" nodes="2" tables="best_sellers_*"/>
              <createTable policy="all"><backend name="pg2"/></createTable>
              <table name="orders"/>
            </raidb2>"""),
                "shop.xml");
        VirtualDatabaseConfig vdb = c.virtualDatabase("shop");
        assertThat(vdb.backends().get(0).tables()).containsExactly("orders", "Item");
        ReplicationConfig r = vdb.replication();
        assertThat(r.level()).isEqualTo("raidb2");
        assertThat(r.readPolicy()).isEqualTo("leastPending");
        assertThat(r.completion()).isEqualTo("majority");
        assertThat(r.createTables())
                .containsExactly(
                        new CreateTableConfig("best_sellers_*", "roundRobin", 2, List.of()),
                        new CreateTableConfig(null, "all", null, List.of("pg2")));
        assertThat(r.tables()).containsExactly("orders");
        assertThat(r.createTablePolicy().ruleFor("best_sellers_3").nodes()).isEqualTo(2);
        assertThat(r.createTablePolicy().ruleFor("anything").backends()).containsExactly("pg2");
    }

    @Test
    void backendsWithoutTablesReadThemFromTheirSchemas() throws Exception {
        VirtualDatabaseConfig vdb =
                ConfigLoader.load(config("", "", "<raidb2/>"), "shop.xml").virtualDatabase("shop");
        assertThat(vdb.backends()).allSatisfy(b -> assertThat(b.tables()).isNull());
        assertThat(vdb.replication().createTablePolicy().ruleFor("t").choice()).isEqualTo(CreateTableRule.Choice.ALL);
    }

    @Test
    void raidb0CompletesWithAllAndPlacesNewTablesOnOneBackend() throws Exception {
        ReplicationConfig r = ConfigLoader.load(
                        config("<table name=\"a\"/>", "<table name=\"b\"/>", "<raidb0/>"), "shop.xml")
                .virtualDatabase("shop")
                .replication();
        assertThat(r.level()).isEqualTo("raidb0");
        assertThat(r.completion()).isEqualTo("all");
        CreateTableRule byDefault = r.createTablePolicy().ruleFor("c");
        assertThat(byDefault.choice()).isEqualTo(CreateTableRule.Choice.ROUND_ROBIN);
        assertThat(byDefault.nodes()).isEqualTo(1);
    }

    @Test
    void errorCheckingLevelsAskThreeBackendsByDefault() throws Exception {
        assertThat(ConfigLoader.load(config("", "", "<raidb1ec/>"), "s.xml")
                        .virtualDatabase("shop")
                        .replication()
                        .nodes())
                .isEqualTo(ConfigDefaults.ERROR_CHECKING_NODES);
        ReplicationConfig r = ConfigLoader.load(
                        config(
                                "<table name=\"a\"/>",
                                "<table name=\"a\"/>",
                                "<raidb2ec nodes=\"2\" readPolicy=\"leastPending\"/>"),
                        "s.xml")
                .virtualDatabase("shop")
                .replication();
        assertThat(r.level()).isEqualTo("raidb2ec");
        assertThat(r.nodes()).isEqualTo(2);
    }

    @Test
    void aDeclaredTableOnNoBackendIsAnError() {
        assertError(
                config("<table name=\"orders\"/>", "<table name=\"orders\"/>", """
        <raidb2>
              <table name="orders"/>
              <table name="customer"/>
            </raidb2>"""),
                "shop.xml:12:",
                "table customer is on no backend: add it to the tables of at least two backends");
    }

    @Test
    void aRaidb0TableOnTwoBackendsIsAnError() {
        assertError(
                config("<table name=\"a\"/><table name=\"shared\"/>", "<table name=\"shared\"/>", "<raidb0/>"),
                "shop.xml:8:",
                "table shared is on backends pg1, pg2, but RAIDb-0 keeps each table on exactly one backend");
    }

    @Test
    void aRaidb2TableWithFewerCopiesThanItsRuleIsAnError() {
        assertError(
                config("<table name=\"orders\"/><table name=\"item\"/>", "<table name=\"item\"/>", """
        <raidb2><createTable policy="roundRobin" nodes="2" tables="order*"/></raidb2>"""),
                "shop.xml:8:",
                "table orders is on 1 backend (pg1) but the create-table rule for 'order*' (roundRobin, 2 nodes)"
                        + " gives tables of that name 2 copies: add orders to more backends, or change the rule");
    }

    @Test
    void createTableRulesMustMakeSense() {
        assertError(
                config("", "", "<raidb2>\n<createTable policy=\"all\" nodes=\"2\"/></raidb2>"),
                "shop.xml:11:",
                "create-table policy all places the table on every candidate backend: remove nodes=2");
        assertError(
                config("", "", "<raidb2>\n<createTable policy=\"all\"/>\n<createTable policy=\"random\"/></raidb2>"),
                "shop.xml:12:",
                "a second <createTable> without a tables pattern");
        assertError(
                config("", "", "<raidb0>\n<createTable policy=\"roundRobin\" nodes=\"2\"/></raidb0>"),
                "shop.xml:11:",
                "RAIDb-0 keeps each table on exactly one backend, but the create-table rule by default (roundRobin, 2 nodes) may"
                        + " place more copies");
        assertError(
                config(
                        "",
                        "",
                        "<raidb2>\n<createTable policy=\"all\" tables=\"x*\"><backend name=\"pg9\"/></createTable>"
                                + "</raidb2>"),
                "shop.xml:11:",
                "names pg9, not a backend of this virtual database: use one of pg1, pg2");
        assertError(
                config("", "", "<raidb2>\n<createTable policy=\"random\" nodes=\"3\"/></raidb2>"),
                "shop.xml:11:",
                "asks for 3 copies but can choose among 2 backends");
    }

    @Test
    void everyBackendListsItsTablesOrNone() {
        assertError(
                config("<table name=\"a\"/>", "", "<raidb2/>"),
                "shop.xml:9:",
                "backend pg2 lists no <table> while pg1 does: give every backend of virtual database shop its tables, or none");
    }

    @Test
    void raidb1BackendsHoldEverything() {
        assertError(
                config("<table name=\"a\"/>", "", "<raidb1/>"),
                "shop.xml:8:",
                "backend pg1 lists its tables, but raidb1 keeps every table on every backend");
    }

    @Test
    void schemaRulesOnTables() {
        assertError(
                config("<table name=\"a\"/><table name=\"a\"/>", "<table name=\"a\"/>", "<raidb2/>"),
                "shop.xml:8:",
                "backend 'pg1' lists table 'a' twice");
        assertError(
                config("<table name=\"public.a\"/>", "<table name=\"a\"/>", "<raidb2/>"),
                "shop.xml:8:",
                "<table> attribute 'name' must be a table name");
        assertError(
                config("", "", "<raidb2><createTable policy=\"all\" tables=\"a b\"/></raidb2>"),
                "shop.xml:10:",
                "<createTable> attribute 'tables' must be a table name pattern");
        assertError(
                config("", "", "<raidb2><createTable policy=\"sometimes\"/></raidb2>"),
                "shop.xml:10:",
                "<createTable> attribute 'policy' must be one of all, roundRobin, random");
        assertError(
                config("", "", "<raidb1ec nodes=\"1\"/>"),
                "shop.xml:10:",
                "<raidb1ec> attribute 'nodes' must be at least 2");
        assertError(
                config("", "", "<raidb0 completion=\"first\"/>"),
                "shop.xml:10:",
                "<raidb0> has no attribute 'completion'");
    }

    private static void assertError(String xml, String positionPrefix, String reason) {
        assertThatThrownBy(() -> ConfigLoader.load(xml, "shop.xml"))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .startsWith(positionPrefix)
                        .contains(reason)
                        .doesNotContain("cvc-"));
    }
}
