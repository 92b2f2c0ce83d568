package org.raidb.controller.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.keys.TableKeys.Action;
import org.raidb.controller.keys.TableKeys.ForeignKey;
import org.raidb.controller.keys.TableKeys.KeyColumn;
import org.raidb.controller.keys.TableKeys.Omitted;
import org.raidb.controller.keys.TableKeys.UniqueIndex;
import org.raidb.controller.keys.TableKeys.ValueType;
import org.raidb.controller.scheduler.Claim;
import org.raidb.controller.scheduler.ClassLockManager;
import org.raidb.controller.scheduler.ConflictClass;
import org.raidb.controller.scheduler.LockMode;

/** From a statement, its parameter values and a catalogue to the classes it claims; and where that falls back. */
class ConflictClaimsTest {
    private final SqlAnalyzer analyzer = new SqlAnalyzer();
    private final ConflictClaims claims = new ConflictClaims(catalog());

    // r (id int PRIMARY KEY, v text); users (id int PRIMARY KEY, email text UNIQUE); pair (a int, b int, PRIMARY KEY
    // (a, b));
    // parent (id int PRIMARY KEY); child (id int PRIMARY KEY, parent_id int REFERENCES parent);
    // items (id serial PRIMARY KEY, name text); audited (id int PRIMARY KEY) with a trigger
    private static KeyCatalog catalog() {
        KeyCatalog catalog = new KeyCatalog("test");
        ForeignKey childToParent = new ForeignKey(
                "child", List.of("parent_id"), "parent", List.of("id"), Action.NO_ACTION, Action.NO_ACTION);
        ForeignKey lineToItem =
                new ForeignKey("line", List.of("item_id"), "item", List.of("id"), Action.NO_ACTION, Action.NO_ACTION);
        catalog.merge(new KeyReader.Snapshot(
                "public",
                Map.of(
                        "item",
                                table(
                                        "item",
                                        List.of(integer("id"), integer("stock")),
                                        List.of(pk("id")),
                                        List.of(),
                                        List.of(lineToItem),
                                        false),
                        "line",
                                table(
                                        "line",
                                        List.of(integer("id"), integer("item_id")),
                                        List.of(pk("id")),
                                        List.of(lineToItem),
                                        List.of(),
                                        false),
                        "r",
                                table(
                                        "r",
                                        List.of(integer("id"), text("v")),
                                        List.of(pk("id")),
                                        List.of(),
                                        List.of(),
                                        false),
                        "users",
                                table(
                                        "users",
                                        List.of(integer("id"), text("email")),
                                        List.of(
                                                pk("id"),
                                                new UniqueIndex("users_email_key", List.of("email"), false, true)),
                                        List.of(),
                                        List.of(),
                                        false),
                        "pair",
                                table(
                                        "pair",
                                        List.of(integer("a"), integer("b")),
                                        List.of(pk("a", "b")),
                                        List.of(),
                                        List.of(),
                                        false),
                        "parent",
                                table(
                                        "parent",
                                        List.of(integer("id")),
                                        List.of(pk("id")),
                                        List.of(),
                                        List.of(childToParent),
                                        false),
                        "child",
                                table(
                                        "child",
                                        List.of(integer("id"), integer("parent_id")),
                                        List.of(pk("id")),
                                        List.of(childToParent),
                                        List.of(),
                                        false),
                        "items",
                                table(
                                        "items",
                                        List.of(
                                                new KeyColumn(
                                                        "id",
                                                        ValueType.INTEGER,
                                                        -1,
                                                        Omitted.FRESH,
                                                        "items_id_seq",
                                                        false),
                                                text("name")),
                                        List.of(pk("id")),
                                        List.of(),
                                        List.of(),
                                        false),
                        "audited",
                                table(
                                        "audited",
                                        List.of(integer("id")),
                                        List.of(pk("id")),
                                        List.of(),
                                        List.of(),
                                        true))));
        return catalog;
    }

    @Test
    void aPinnedPrimaryKeyIsARow() {
        // PostgreSQL: an UPDATE changing no unique column holds the row's other columns (FOR NO KEY UPDATE).
        assertThat(of("UPDATE r SET v = 'x' WHERE id = 5")).containsExactly(x(values(row("r", "5"))));
        assertThat(of("DELETE FROM r WHERE r.id = 5 AND v = 'old'")).containsExactly(x(row("r", "5")));
        assertThat(of("SELECT * FROM r WHERE id = 5 FOR UPDATE")).containsExactly(x(row("r", "5")));
        assertThat(of("SELECT * FROM r WHERE id = 5 FOR SHARE")).containsExactly(Claim.shared(row("r", "5")));
    }

    @Test
    void aPreparedStatementIsPinnedByTheValuesOfEachExecution() {
        String sql = "UPDATE r SET v = ? WHERE id = ?";
        assertThat(analyzer.analyze(sql)).isSameAs(analyzer.analyze(sql)); // analysed once, cached by text
        assertThat(of(sql, "x", 7)).containsExactly(x(values(row("r", "7"))));
        assertThat(of(sql, "x", 8)).containsExactly(x(values(row("r", "8"))));
    }

    @Test
    void everySpellingOfOneKeyIsOneRow() {
        for (Object id : List.of(5, 5L, (short) 5, new BigDecimal("5.00"), "5", " 5 ", 5.0d)) {
            assertThat(of("UPDATE r SET v = 'x' WHERE id = ?", id))
                    .as("bound %s (%s)", id, id.getClass().getSimpleName())
                    .containsExactly(x(values(row("r", "5"))));
        }
        for (String literal : List.of("5", "'5'", "5.0", "+5", "(5)")) {
            assertThat(of("UPDATE r SET v = 'x' WHERE id = " + literal))
                    .as(literal)
                    .containsExactly(x(values(row("r", "5"))));
        }
        assertThat(of("UPDATE r SET v = 'x' WHERE id = -5")).containsExactly(x(values(row("r", "-5"))));
    }

    @Test
    void aCompositeKeyIsPinnedByAllItsColumnsOrByItsLeadingOnes() {
        assertThat(of("DELETE FROM pair WHERE a = 1 AND b = 2"))
                .containsExactly(x(key("pair", "(a, b)", true, "1", "2")));
        // The lines of one order: the rows whose key begins with 1, which every row (1, b) is part of.
        ConflictClass pairsOf1 = ConflictClass.leadingValues("pair", "(a, b)", true, List.of("1"));
        assertThat(of("DELETE FROM pair WHERE a = 1")).containsExactly(x(pairsOf1));
        assertThat(of("SELECT * FROM pair WHERE a = ? FOR SHARE", 1)).containsExactly(Claim.shared(pairsOf1));
        assertThat(key("pair", "(a, b)", true, "1", "2").parent()).isEqualTo(pairsOf1);
        assertThat(pairsOf1.parent()).isEqualTo(ConflictClass.index("pair", "(a, b)", true));
        // Only a later column pinned, or leading rows moved to keys it cannot name: the table.
        assertThat(of("DELETE FROM pair WHERE b = 2")).containsExactly(x(ConflictClass.table("pair")));
        assertThat(of("UPDATE pair SET b = 3 WHERE a = 1")).contains(x(ConflictClass.table("pair")));
        // (a, b) IN ((1, 2), (3, 4)) is read as a IN (1, 3) AND b IN (2, 4): four rows, a superset of the two.
        assertThat(of("DELETE FROM pair WHERE (a, b) IN ((1, 2), (3, 4))"))
                .hasSize(4)
                .contains(x(key("pair", "(a, b)", true, "1", "2")), x(key("pair", "(a, b)", true, "3", "4")));
        assertThat(of("UPDATE r SET v = 'x' WHERE id IN (1, 2, ?)", 3))
                .containsExactly(x(values(row("r", "1"))), x(values(row("r", "2"))), x(values(row("r", "3"))));
    }

    @Test
    void anInsertClaimsTheRowsOfItsValuesAndTheUniqueValuesItWrites() {
        assertThat(of("INSERT INTO r VALUES (1, 'a'), (2, 'b')"))
                .containsExactly(new Claim(ConflictClass.table("r"), LockMode.IX), x(row("r", "1")), x(row("r", "2")));
        assertThat(of("INSERT INTO users (email, id) VALUES ('x@example.org', 1)"))
                .contains(x(row("users", "1")), x(key("users", "(email)", false, "x@example.org")));
        // A prepared batch: one analysis, a row of values per execution.
        AnalyzedStatement insert = analyzer.analyze("INSERT INTO r VALUES (?, ?)");
        assertThat(claims.of(List.of(insert), List.of(List.of(10, "a"), List.of(11, "b"))))
                .contains(x(row("r", "10")), x(row("r", "11")));
    }

    @Test
    void aForeignKeyValueClaimsItsParentRowsKeySharedAndAParentDeletionMeetsIt() {
        assertThat(of("INSERT INTO child VALUES (10, 1)"))
                .contains(x(row("child", "10")), Claim.shared(ConflictClass.rowKey(row("parent", "1"))));
        assertThat(of("INSERT INTO child VALUES (11, NULL)"))
                .noneMatch(c -> "parent".equals(c.conflictClass().table()));
        assertThat(of("DELETE FROM parent WHERE id = 1"))
                .containsExactly(x(row("parent", "1")), Claim.shared(ConflictClass.table("child")));
        assertThat(of("UPDATE child SET parent_id = 2 WHERE id = 10"))
                .contains(x(values(row("child", "10"))), Claim.shared(ConflictClass.rowKey(row("parent", "2"))));
    }

    /**
     * TPC-W's Buy Confirm inserts order lines (checking each item's key) and then updates the items'
     * stock: two purchases of the same items must not wait for each other in a cycle that PostgreSQL,
     * whose key checks and stock updates do not wait for each other, never has.
     */
    @Test
    void aForeignKeyCheckAndAnUpdateOfTheParentsOtherColumnsHoldTogetherButOtherWritesOfTheRowWait() throws Exception {
        ClassLockManager locks = new ClassLockManager(false, 300);
        locks.acquire(1, of("UPDATE item SET stock = stock - 1 WHERE id = 3")); // a purchase updates the item's stock
        locks.acquire(2, of("INSERT INTO line VALUES (1, 3)")); // another inserts an order line of it
        locks.acquire(3, of("INSERT INTO line VALUES (2, 3)"));
        assertThat(locks.held(1)).contains(values(row("item", "3")));
        assertThat(locks.held(2)).contains(ConflictClass.rowKey(row("item", "3")));
        assertWaitsPastTheTimeout(() -> locks.acquire(4, of("UPDATE item SET stock = 0 WHERE id = 3")));
        assertWaitsPastTheTimeout(() -> locks.acquire(5, of("DELETE FROM item WHERE id = 3")));
        assertWaitsPastTheTimeout(() -> locks.acquire(6, of("UPDATE item SET id = 30 WHERE id = 3")));
        locks.acquire(7, of("UPDATE item SET stock = stock - 1 WHERE id = 4")); // another item
    }

    private interface Acquisition {
        void run() throws SQLException;
    }

    private static void assertWaitsPastTheTimeout(Acquisition acquisition) {
        assertThatThrownBy(acquisition::run)
                .isInstanceOf(SQLException.class)
                .extracting(e -> ((SQLException) e).getSQLState())
                .isEqualTo("55P03");
    }

    @Test
    void onMariaDbAForeignKeyCheckHoldsTheWholeParentRow() {
        KeyCatalog mariaDb = new KeyCatalog("test");
        ForeignKey lineToItem =
                new ForeignKey("line", List.of("item_id"), "item", List.of("id"), Action.NO_ACTION, Action.NO_ACTION);
        mariaDb.merge(new KeyReader.Snapshot(
                "test",
                Map.of(
                        "item",
                        new TableKeys(
                                "item",
                                List.of(integer("id"), text("stock")),
                                List.of(pk("id")),
                                List.of(),
                                List.of(lineToItem),
                                false,
                                true),
                        "line",
                        new TableKeys(
                                "line",
                                List.of(integer("id"), integer("item_id")),
                                List.of(pk("id")),
                                List.of(lineToItem),
                                List.of(),
                                false,
                                true))));
        ConflictClaims onMariaDb = new ConflictClaims(mariaDb);
        // InnoDB's check takes a shared lock on the item's record, which its stock update waits for.
        assertThat(onMariaDb.of(List.of(analyzer.analyze("INSERT INTO line VALUES (1, 3)")), null))
                .contains(Claim.shared(row("item", "3")));
        assertThat(onMariaDb.of(List.of(analyzer.analyze("UPDATE item SET stock = 'x' WHERE id = 3")), null))
                .containsExactly(x(row("item", "3")));
    }

    @Test
    void sequencesAreClassesOfTheirOwn() {
        assertThat(of("SELECT nextval('s')")).containsExactly(Claim.exclusive(ConflictClass.sequence("s")));
        assertThat(of("SELECT setval('public.s'::regclass, 10)"))
                .containsExactly(Claim.exclusive(ConflictClass.sequence("s")));
        assertThat(of("SELECT nextval(pg_get_serial_sequence('items', 'id'))"))
                .contains(Claim.exclusive(ConflictClass.SEQUENCES));
        assertThat(of("CREATE SEQUENCE s")).containsExactly(x(ConflictClass.sequence("s")));
        assertThat(of("DROP SEQUENCE s")).containsExactly(x(ConflictClass.sequence("s")));
        // An insert relying on a serial column: its sequence for the statement, and a key nobody else can hold.
        assertThat(of("INSERT INTO items (name) VALUES ('b')"))
                .containsExactly(
                        new Claim(ConflictClass.table("items"), LockMode.IX),
                        Claim.exclusive(ConflictClass.sequence("items_id_seq")));
        assertThat(of("INSERT INTO r VALUES (nextval('r_ids'), 'a')"))
                .containsExactly(
                        Claim.exclusive(ConflictClass.sequence("r_ids")),
                        new Claim(ConflictClass.table("r"), LockMode.IX));
    }

    @Test
    void sessionSettingsClaimNothing() {
        assertThat(of("SET search_path TO public")).isEmpty();
        assertThat(of("RESET ALL")).isEmpty();
        assertThat(of("SHOW search_path")).isEmpty();
    }

    @Test
    void statementsWhoseRowsCannotBeToldClaimTheWholeTable() {
        ConflictClass r = ConflictClass.table("r");
        for (String sql : List.of(
                "UPDATE r SET v = 'x' WHERE id > 5", // a range
                "UPDATE r SET v = 'x' WHERE v = 'a'", // not the key
                "UPDATE r SET v = 'x' WHERE id = 5 OR id = 6", // not a conjunction
                "UPDATE r SET v = 'x'", // every row
                "DELETE FROM r WHERE id = (SELECT max(id) FROM r)", // a query inside
                "UPDATE r SET v = (SELECT v FROM r WHERE id = 2) WHERE id = 1", // reads another row
                "UPDATE r SET v = my_function(id) WHERE id = 1", // a function that may read anything
                "UPDATE r SET id = id + 1 WHERE id = 1", // moves the row to a key it cannot name
                "UPDATE r SET v = 'x' FROM users WHERE r.id = users.id", // a join
                "INSERT INTO r SELECT id, email FROM users", // rows from a query
                "INSERT INTO r VALUES (1, 'a') ON CONFLICT (id) DO UPDATE SET v = 'b'", // may update a row found
                // otherwise
                "UPDATE other_schema.r SET v = 'x' WHERE id = 1")) { // another schema's r: its keys are not known
            assertThat(of(sql))
                    .as(sql)
                    .contains(x(r))
                    .noneMatch(c -> c.conflictClass().kind() == ConflictClass.Kind.KEY
                            && c.conflictClass().table().equals("r"));
        }
        assertThat(of("UPDATE r SET v = 'x' WHERE id = ?", 5.5d))
                .as("a fraction for an integer key")
                .containsExactly(x(r));
        assertThat(of("UPDATE r SET v = 'x' WHERE id = ?", "5 ")).containsExactly(x(values(row("r", "5"))));
        // A table whose keys are not known: the table, and every sequence shared (its defaults may draw from one).
        assertThat(of("UPDATE unknown_table SET v = 'x' WHERE id = 1"))
                .containsExactly(x(ConflictClass.table("unknown_table")), Claim.shared(ConflictClass.SEQUENCES));
        // Several statements in one text, and DDL: their tables.
        assertThat(of("UPDATE r SET v = 'x' WHERE id = 1; UPDATE users SET email = NULL WHERE id = 1"))
                .contains(x(r), x(ConflictClass.table("users")));
        assertThat(of("ALTER TABLE r ADD COLUMN w int")).contains(x(r));
    }

    /**
     * Issue 14, bad input: a write whose rows cannot be derived falls back to its whole table (or to
     * everything), never to no class, which would let it run in a different order on each backend.
     */
    @Test
    void aWriteWhoseKeysCannotBeDerivedNeverClaimsNoClass() {
        for (String sql : List.of(
                "TRUNCATE r",
                "DELETE FROM r USING users WHERE r.id = users.id",
                "WITH gone AS (DELETE FROM users WHERE id = 1 RETURNING id) UPDATE r SET v = 'x' WHERE id = 1",
                "UPDATE r SET v = 'x' WHERE id IN (SELECT id FROM users)",
                "UPDATE r SET v = 'x' WHERE id BETWEEN 1 AND 3",
                "DELETE FROM r WHERE id IS NULL",
                "DELETE FROM r WHERE ctid = '(0,1)'",
                "MERGE INTO r USING users u ON r.id = u.id WHEN MATCHED THEN UPDATE SET v = 'x'")) {

            assertThat(of(sql))
                    .as(sql)
                    .isNotEmpty()
                    .anyMatch(c -> c.mode() == LockMode.EXCLUSIVE
                            && (c.conflictClass().equals(ConflictClass.EVERYTHING)
                                    || c.conflictClass().equals(ConflictClass.table("r"))));
        }
    }

    @Test
    void aTriggerOrAnUnknownStatementConflictsWithEverything() {
        assertThat(of("UPDATE audited SET id = 2 WHERE id = 1")).containsExactly(x(ConflictClass.EVERYTHING));
        assertThat(of("this is not sql")).containsExactly(x(ConflictClass.EVERYTHING));
        assertThat(of("CREATE FUNCTION f() RETURNS int AS 'SELECT 1' LANGUAGE sql"))
                .containsExactly(x(ConflictClass.EVERYTHING));
    }

    @Test
    void freeingAUniqueValueClaimsEveryValueOfItsIndex() {
        assertThat(of("DELETE FROM users WHERE id = 1"))
                .containsExactly(x(row("users", "1")), x(ConflictClass.index("users", "(email)", false)));
        assertThat(of("UPDATE users SET email = 'y@example.org' WHERE id = 1"))
                .containsExactly(x(row("users", "1")), x(ConflictClass.index("users", "(email)", false)));
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private List<Claim> of(String sql, Object... parameters) {
        List<List<Object>> rows =
                parameters.length == 0 ? null : Collections.singletonList(new ArrayList<>(Arrays.asList(parameters)));
        return claims.of(List.of(analyzer.analyze(sql)), rows);
    }

    private static Claim x(ConflictClass c) {
        return Claim.exclusive(c);
    }

    private static ConflictClass values(ConflictClass row) {
        return ConflictClass.rowValues(row);
    }

    private static ConflictClass row(String table, String id) {
        return key(table, "(id)", true, id);
    }

    private static ConflictClass key(String table, String index, boolean primary, String... values) {
        return ConflictClass.key(table, index, primary, List.of(values));
    }

    private static KeyColumn integer(String name) {
        return new KeyColumn(name, ValueType.INTEGER, -1, Omitted.NULL, null, false);
    }

    private static KeyColumn text(String name) {
        return new KeyColumn(name, ValueType.TEXT, -1, Omitted.NULL, null, false);
    }

    private static UniqueIndex pk(String... columns) {
        return new UniqueIndex("pk", List.of(columns), true, true);
    }

    private static TableKeys table(
            String name,
            List<KeyColumn> columns,
            List<UniqueIndex> unique,
            List<ForeignKey> references,
            List<ForeignKey> referencedBy,
            boolean triggers) {
        return new TableKeys(name, columns, unique, references, referencedBy, triggers, false);
    }
}
