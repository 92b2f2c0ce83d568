package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlAnalyzerTest {
    private final SqlAnalyzer analyzer = new SqlAnalyzer();

    @Test
    void setConfigOfTheSessionIsASessionSettingAndALocalOneStaysACallThatMayWrite() {
        assertThat(analyzer.analyze("SELECT set_config('search_path', ?, false)")
                        .kind())
                .isEqualTo(StatementKind.SESSION_SETTING);
        assertThat(analyzer.analyze("select pg_catalog.set_config('a.b', 'x', FALSE)")
                        .kind())
                .isEqualTo(StatementKind.SESSION_SETTING);
        AnalyzedStatement local = analyzer.analyze("SELECT set_config('search_path', 'x', true)");
        assertThat(local.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(local.touchesEverything()).isTrue();
        assertThat(analyzer.analyze("SELECT set_config('a.b', v, false) FROM t").kind())
                .isNotEqualTo(StatementKind.SESSION_SETTING);
    }

    @Test
    void selectIsAReadOfItsTables() {
        AnalyzedStatement a = analyzer.analyze(
                "SELECT c.name FROM customers c JOIN public.Orders o ON o.cid = c.id WHERE o.total > ?");
        assertThat(a.kind()).isEqualTo(StatementKind.READ);
        assertThat(a.tablesRead()).containsExactlyInAnyOrder("customers", "orders");
        assertThat(a.touchesEverything()).isFalse();
    }

    @Test
    void quotedNamesKeepTheirCase() {
        assertThat(analyzer.analyze("SELECT * FROM \"Mixed\"").tablesRead()).containsExactly("Mixed");
    }

    @Test
    void dmlWritesItsTargetAndReadsTheRest() {
        AnalyzedStatement a = analyzer.analyze("INSERT INTO archive SELECT * FROM orders WHERE id < 10");
        assertThat(a.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(a.tablesWritten()).containsExactly("archive");
        assertThat(a.tablesRead()).containsExactly("orders");
        assertThat(analyzer.analyze("UPDATE accounts SET balance = balance + 1 WHERE id = 3")
                        .tablesWritten())
                .containsExactly("accounts");
        assertThat(analyzer.analyze("DELETE FROM accounts WHERE id IN (SELECT id FROM closed)")
                        .tablesRead())
                .containsExactly("closed");
    }

    @Test
    void rowLocksAndSequenceCallsAreWrites() {
        assertThat(analyzer.analyze("SELECT * FROM accounts WHERE id = 1 FOR UPDATE")
                        .kind())
                .isEqualTo(StatementKind.WRITE);
        AnalyzedStatement nextval = analyzer.analyze("SELECT nextval('order_seq')");
        assertThat(nextval.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(nextval.touchesEverything())
                .as("ordered against every write, serial inserts included")
                .isTrue();
        AnalyzedStatement insert = analyzer.analyze("INSERT INTO orders (id) VALUES (nextval('order_seq'))");
        assertThat(insert.tablesWritten()).containsExactly("orders");
        assertThat(insert.touchesEverything()).isTrue();
        assertThat(analyzer.analyze("CREATE SEQUENCE s START 10").touchesEverything())
                .isTrue();
        assertThat(analyzer.analyze("ALTER SEQUENCE s RESTART WITH 5").touchesEverything())
                .isTrue();
    }

    @Test
    void ddlNamesItsObject() {
        AnalyzedStatement a = analyzer.analyze("CREATE TABLE items (id int primary key, name text)");
        assertThat(a.kind()).isEqualTo(StatementKind.DDL);
        assertThat(a.tablesWritten()).containsExactly("items");
        assertThat(analyzer.analyze("DROP TABLE items").tablesWritten()).containsExactly("items");
        assertThat(analyzer.analyze("ALTER TABLE items ADD COLUMN price numeric")
                        .tablesWritten())
                .containsExactly("items");
        assertThat(analyzer.analyze("CREATE INDEX items_name ON items (name)").tablesWritten())
                .containsExactly("items");
        assertThat(analyzer.analyze("SELECT * INTO copy FROM items").tablesWritten())
                .containsExactly("copy");
    }

    @Test
    void transactionControlIsRecognisedWithoutParsing() {
        assertThat(analyzer.analyze("begin").transactionCommand()).isEqualTo(TransactionCommand.BEGIN);
        assertThat(analyzer.analyze("START TRANSACTION ISOLATION LEVEL SERIALIZABLE")
                        .transactionCommand())
                .isEqualTo(TransactionCommand.BEGIN);
        assertThat(analyzer.analyze("  -- done\nCOMMIT").transactionCommand()).isEqualTo(TransactionCommand.COMMIT);
        assertThat(analyzer.analyze("ROLLBACK").transactionCommand()).isEqualTo(TransactionCommand.ROLLBACK);
        AnalyzedStatement toSavepoint = analyzer.analyze("ROLLBACK TO SAVEPOINT sp1");
        assertThat(toSavepoint.transactionCommand()).isEqualTo(TransactionCommand.ROLLBACK_TO_SAVEPOINT);
        assertThat(toSavepoint.savepointName()).isEqualTo("sp1");
        assertThat(analyzer.analyze("savepoint a_b").savepointName()).isEqualTo("a_b");
        assertThat(analyzer.analyze("RELEASE SAVEPOINT x").transactionCommand())
                .isEqualTo(TransactionCommand.RELEASE_SAVEPOINT);
    }

    @Test
    void sessionSettingsGoEverywhere() {
        assertThat(analyzer.analyze("SET search_path TO shop").kind()).isEqualTo(StatementKind.SESSION_SETTING);
        assertThat(analyzer.analyze("SHOW server_version").kind()).isEqualTo(StatementKind.READ);
    }

    @Test
    void unparsableSqlIsAConservativeWrite() {
        AnalyzedStatement a = analyzer.analyze("SELEC 1 FROMM nowhere");
        assertThat(a.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(a.touchesEverything()).isTrue();
    }

    @Test
    void callsTouchEverything() {
        AnalyzedStatement a = analyzer.analyze("CALL transfer(1, 2, 10)");
        assertThat(a.kind()).isEqualTo(StatementKind.CALL);
        assertThat(a.touchesEverything()).isTrue();
    }

    @Test
    void aCallableStatementsTranslatedEscapeIsACallOnEveryBackend() {
        // {call add_order(?, ?)} arrives as this query, flagged as a call by the driver.
        AnalyzedStatement a = analyzer.analyzeCall("select * from add_order(?, ?)");
        assertThat(a.kind()).isEqualTo(StatementKind.CALL);
        assertThat(a.kind().isWrite()).isTrue();
        assertThat(a.touchesEverything()).isTrue();
        assertThat(analyzer.analyzeCall("select stamp(now())").needsRewrite())
                .as("now() in a call's arguments")
                .isTrue();
    }

    @Test
    void aPlainSelectOfAFunctionNoCatalogueKnowsIsAWriteOnEveryBackend() {
        // Without a catalogue (FunctionVolatility.BUILT_INS_ONLY) a user function may write.
        AnalyzedStatement a = analyzer.analyze("SELECT add_order('book', 2)");
        assertThat(a.kind()).isEqualTo(StatementKind.WRITE);
        assertThat(a.touchesEverything()).isTrue();
        assertThat(analyzer.analyze("select * from add_order(?, ?)").kind()).isEqualTo(StatementKind.WRITE);
        assertThat(analyzer.analyze("SELECT lower(name), count(*) FROM items GROUP BY 1")
                        .kind())
                .isEqualTo(StatementKind.READ);
    }

    @Test
    void createTableNamesTheNewTableAndItsSources() {
        AnalyzedStatement plain = analyzer.analyze("CREATE TABLE items (id int primary key, name text)");
        assertThat(plain.createdTable()).isEqualTo("items");
        assertThat(plain.tablesRead()).isEmpty();
        assertThat(plain.schemaChange()).isEqualTo(SchemaChange.create("items"));

        AnalyzedStatement withKeys =
                analyzer.analyze("CREATE TABLE orders (o_id integer PRIMARY KEY, o_c_id integer NOT NULL"
                        + " REFERENCES customer, o_addr integer REFERENCES address(addr_id), parent int REFERENCES orders,"
                        + " CONSTRAINT fk FOREIGN KEY (o_id) REFERENCES public.Audit (id))");
        assertThat(withKeys.createdTable()).isEqualTo("orders");
        assertThat(withKeys.tablesWritten()).containsExactly("orders");
        assertThat(withKeys.tablesRead())
                .as("referenced tables, not itself")
                .containsExactlyInAnyOrder("customer", "address", "audit");

        AnalyzedStatement temp = analyzer.analyze(
                "CREATE TEMPORARY TABLE best_sellers_1 AS SELECT o_id FROM orders ORDER BY o_id DESC LIMIT 3333");
        assertThat(temp.kind()).isEqualTo(StatementKind.DDL);
        assertThat(temp.createdTable()).isEqualTo("best_sellers_1");
        assertThat(temp.tablesRead()).containsExactly("orders");

        AnalyzedStatement joined = analyzer.analyze("CREATE TABLE c AS SELECT * FROM a JOIN b ON a.id = b.id");
        assertThat(joined.tablesRead()).containsExactlyInAnyOrder("a", "b");
        assertThat(analyzer.analyze("SELECT * INTO copy FROM items").createdTable())
                .isEqualTo("copy");
    }

    @Test
    void createViewNamesTheViewAndTheTablesItSelects() {
        AnalyzedStatement v = analyzer.analyze(
                "CREATE OR REPLACE VIEW recent AS SELECT * FROM orders o, order_line l" + " WHERE o.o_id = l.ol_o_id");
        assertThat(v.kind()).isEqualTo(StatementKind.DDL);
        assertThat(v.touchesEverything()).isFalse();
        assertThat(v.createdTable()).isEqualTo("recent");
        assertThat(v.tablesRead()).containsExactlyInAnyOrder("orders", "order_line");
    }

    @Test
    void dropAndRenameChangeWhatABackendHolds() {
        assertThat(analyzer.analyze("DROP TABLE IF EXISTS gone CASCADE").schemaChange())
                .isEqualTo(SchemaChange.drop("gone", true));
        assertThat(analyzer.analyze("DROP VIEW recent").schemaChange()).isEqualTo(SchemaChange.drop("recent", false));
        AnalyzedStatement rename = analyzer.analyze("ALTER TABLE old_name RENAME TO new_name");
        assertThat(rename.tablesWritten()).containsExactly("old_name");
        assertThat(rename.schemaChange()).isEqualTo(SchemaChange.rename("old_name", "new_name"));
        assertThat(rename.createdTable()).isNull();
        assertThat(analyzer.analyze("ALTER TABLE t ADD CONSTRAINT f FOREIGN KEY (a) REFERENCES other (id)")
                        .tablesRead())
                .containsExactly("other");
        AnalyzedStatement sequence = analyzer.analyze("CREATE SEQUENCE order_ids");
        assertThat(sequence.touchesEverything())
                .as("a sequence goes to every backend")
                .isTrue();
        assertThat(sequence.createdTable())
                .as("not placed by a create-table rule")
                .isNull();
        assertThat(sequence.schemaChange()).isEqualTo(SchemaChange.create("order_ids"));
        assertThat(analyzer.analyze("DROP SEQUENCE IF EXISTS order_ids").schemaChange())
                .isEqualTo(SchemaChange.drop("order_ids", true));
        assertThat(SchemaChange.rename("a", "b").inverse()).isEqualTo(SchemaChange.rename("b", "a"));
    }

    @Test
    void systemCatalogsAreNoTablesABackendHolds() {
        assertThat(analyzer.analyze("SELECT relname FROM pg_catalog.pg_class c JOIN orders o ON true")
                        .tablesRead())
                .containsExactly("orders");
        assertThat(analyzer.analyze("SELECT * FROM pg_tables").tablesRead()).isEmpty();
        assertThat(analyzer.analyze("SELECT table_name FROM information_schema.tables")
                        .tablesRead())
                .isEmpty();
    }

    @Test
    void resultsAreCachedBySqlText() {
        AnalyzedStatement first = analyzer.analyze("SELECT * FROM t WHERE id = ?");
        assertThat(analyzer.analyze("SELECT * FROM t WHERE id = ?")).isSameAs(first);
        assertThat(analyzer.cacheSize()).isEqualTo(1);
    }

    @Test
    void largeTextsAreAnalysedButNotKept() {
        String large = "INSERT INTO t VALUES ('" + "x".repeat(SqlAnalyzer.MAX_CACHED_TEXT) + "')";
        assertThat(analyzer.analyze(large).tablesWritten()).containsExactly("t");
        assertThat(analyzer.cacheSize()).isZero();
    }
}
