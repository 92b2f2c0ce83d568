package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlAnalyzerTest {
  private final SqlAnalyzer analyzer = new SqlAnalyzer();

  @Test
  void selectIsAReadOfItsTables() {
    AnalyzedStatement a = analyzer.analyze("SELECT c.name FROM customers c JOIN public.Orders o ON o.cid = c.id WHERE o.total > ?");
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
    assertThat(analyzer.analyze("UPDATE accounts SET balance = balance + 1 WHERE id = 3").tablesWritten()).containsExactly("accounts");
    assertThat(analyzer.analyze("DELETE FROM accounts WHERE id IN (SELECT id FROM closed)").tablesRead()).containsExactly("closed");
  }

  @Test
  void rowLocksAndSequenceCallsAreWrites() {
    assertThat(analyzer.analyze("SELECT * FROM accounts WHERE id = 1 FOR UPDATE").kind()).isEqualTo(StatementKind.WRITE);
    AnalyzedStatement nextval = analyzer.analyze("SELECT nextval('order_seq')");
    assertThat(nextval.kind()).isEqualTo(StatementKind.WRITE);
    assertThat(nextval.touchesEverything()).as("ordered against every write, serial inserts included").isTrue();
    AnalyzedStatement insert = analyzer.analyze("INSERT INTO orders (id) VALUES (nextval('order_seq'))");
    assertThat(insert.tablesWritten()).containsExactly("orders");
    assertThat(insert.touchesEverything()).isTrue();
    assertThat(analyzer.analyze("CREATE SEQUENCE s START 10").touchesEverything()).isTrue();
    assertThat(analyzer.analyze("ALTER SEQUENCE s RESTART WITH 5").touchesEverything()).isTrue();
  }

  @Test
  void ddlNamesItsObject() {
    AnalyzedStatement a = analyzer.analyze("CREATE TABLE items (id int primary key, name text)");
    assertThat(a.kind()).isEqualTo(StatementKind.DDL);
    assertThat(a.tablesWritten()).containsExactly("items");
    assertThat(analyzer.analyze("DROP TABLE items").tablesWritten()).containsExactly("items");
    assertThat(analyzer.analyze("ALTER TABLE items ADD COLUMN price numeric").tablesWritten()).containsExactly("items");
    assertThat(analyzer.analyze("CREATE INDEX items_name ON items (name)").tablesWritten()).containsExactly("items");
    assertThat(analyzer.analyze("SELECT * INTO copy FROM items").tablesWritten()).containsExactly("copy");
  }

  @Test
  void transactionControlIsRecognisedWithoutParsing() {
    assertThat(analyzer.analyze("begin").transactionCommand()).isEqualTo(TransactionCommand.BEGIN);
    assertThat(analyzer.analyze("START TRANSACTION ISOLATION LEVEL SERIALIZABLE").transactionCommand()).isEqualTo(TransactionCommand.BEGIN);
    assertThat(analyzer.analyze("  -- done\nCOMMIT").transactionCommand()).isEqualTo(TransactionCommand.COMMIT);
    assertThat(analyzer.analyze("ROLLBACK").transactionCommand()).isEqualTo(TransactionCommand.ROLLBACK);
    AnalyzedStatement toSavepoint = analyzer.analyze("ROLLBACK TO SAVEPOINT sp1");
    assertThat(toSavepoint.transactionCommand()).isEqualTo(TransactionCommand.ROLLBACK_TO_SAVEPOINT);
    assertThat(toSavepoint.savepointName()).isEqualTo("sp1");
    assertThat(analyzer.analyze("savepoint a_b").savepointName()).isEqualTo("a_b");
    assertThat(analyzer.analyze("RELEASE SAVEPOINT x").transactionCommand()).isEqualTo(TransactionCommand.RELEASE_SAVEPOINT);
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
    assertThat(analyzer.analyzeCall("select stamp(now())").needsRewrite()).as("now() in a call's arguments").isTrue();
  }

  @Test
  void aPlainSelectOfAFunctionStaysARead() {
    // Documented limit (docs/protocol.md): without the call flag, the analyser cannot know what a function does.
    AnalyzedStatement a = analyzer.analyze("SELECT add_order('book', 2)");
    assertThat(a.kind()).isEqualTo(StatementKind.READ);
    assertThat(analyzer.analyze("select * from add_order(?, ?)").kind()).isEqualTo(StatementKind.READ);
  }

  @Test
  void resultsAreCachedBySqlText() {
    AnalyzedStatement first = analyzer.analyze("SELECT * FROM t WHERE id = ?");
    assertThat(analyzer.analyze("SELECT * FROM t WHERE id = ?")).isSameAs(first);
    assertThat(analyzer.cacheSize()).isEqualTo(1);
  }
}
