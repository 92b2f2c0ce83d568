package org.raidb.controller.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.BackendState;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.controller.recovery.LoggedStatement;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.result.UpdateCount;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.FrameReader;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.RowsetCodec;

/**
 * The request path in-process, from {@link RequestManager#execute} to the backends and back: a virtual
 * database of three H2 in-memory backends under RAIDb-1 with its recovery log, no network and no
 * driver. Each backend is also read directly, to see what reached it.
 */
class RequestPathOnH2Test {
    private static final List<String> NAMES = List.of("h1", "h2", "h3");
    private static final String RAIDB1 = "<raidb1 readPolicy=\"roundRobin\" completion=\"all\"/>";

    @TempDir
    Path dataDir;

    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private VirtualDatabase vdb;
    private SessionState session;

    private String url(String backend) {
        return "jdbc:h2:mem:request-path-" + run + "-" + backend + ";DB_CLOSE_DELAY=-1";
    }

    /** The configuration as a file would give it: loading it applies the controller's URL policy to H2. */
    private VirtualDatabaseConfig config(String replication) throws Exception {
        String backends = NAMES.stream()
                .map(b -> "    <backend name=\"" + b + "\" url=\"" + url(b) + "\" user=\"sa\" poolSize=\"4\"/>\n")
                .collect(Collectors.joining());
        String xml = """
        <raidb>
          <controller port="0" adminPort="0"/>
          <virtualDatabase name="core">
            <authentication><admin user="admin" password="a"/><virtualUser name="app" password="p"/></authentication>
        %s    <recoveryLog enabled="true"/>
            %s
          </virtualDatabase>
        </raidb>
        """.formatted(backends, replication);
        return ConfigLoader.load(xml, "h2-backends.xml").virtualDatabase("core");
    }

    @BeforeEach
    void threeBackends() throws Exception {
        for (String b : NAMES) {
            direct(
                    b,
                    "CREATE TABLE origin (name VARCHAR(10))",
                    "INSERT INTO origin VALUES ('" + b + "')",
                    "CREATE TABLE items (id INT PRIMARY KEY, qty INT)");
        }
        direct("h3", "CREATE TABLE audit (id INT PRIMARY KEY)"); // only h3 holds it: h1 and h2 fail writes to it
        vdb = new VirtualDatabase(config(RAIDB1), dataDir);
        vdb.start();
        session = new SessionState(1, "app", vdb.transactionIds());
    }

    @AfterEach
    void stop() throws Exception {
        if (vdb != null) {
            vdb.close();
        }
        for (String b : NAMES) {
            direct(b, "SHUTDOWN");
        }
    }

    @Test
    void theBackendsAreUpAndEnabled() {
        assertThat(vdb.backends()).extracting(DatabaseBackend::name).containsExactlyElementsOf(NAMES);
        assertThat(vdb.backends()).allMatch(DatabaseBackend::isEnabled);
        assertThat(vdb.writeLog().enabled()).isTrue();
    }

    @Test
    void anAutoCommitWriteReachesEveryBackend() throws Exception {
        StatementResult r = execute("INSERT INTO items VALUES (1, 10)");

        assertThat(r.results()).containsExactly(new UpdateCount(1));
        for (String b : NAMES) {
            assertThat(itemsOn(b)).as(b).containsExactly("1:10");
        }
        assertThat(vdb.backends()).allMatch(DatabaseBackend::isEnabled);
    }

    @Test
    void aBatchEntersWhereEveryWriteDoesAndItsGateUnitClosesOnceEveryBackendAnswered() throws Exception {
        List<String> texts = List.of("INSERT INTO items VALUES (1, 10)", "INSERT INTO items VALUES (2, 20)");
        List<AnalyzedStatement> parts =
                texts.stream().map(vdb.analyzer()::analyze).toList();
        AnalyzedStatement batch =
                new AnalyzedStatement(StatementKind.WRITE, Set.of(), Set.of("items"), false, null, null);
        List<LoggedStatement> logged =
                texts.stream().map(t -> new LoggedStatement(t, null)).toList();

        StatementResult r = vdb.requests()
                .write(Write.batch(session, batch, parts, texts, null, logged, "batch of 2", c -> {
                    try (Statement st = c.createStatement()) {
                        for (String t : texts) {
                            st.addBatch(t);
                        }
                        long[] counts = st.executeLargeBatch();
                        return new StatementResult(
                                List.of(new UpdateCount(counts[0]), new UpdateCount(counts[1])), null);
                    }
                }));

        assertThat(r.updateCounts()).containsExactly(1, 1);
        for (String b : NAMES) {
            assertThat(itemsOn(b)).as(b).containsExactly("1:10", "2:20");
        }
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(vdb.writeLog().openUnits()).isZero());
    }

    @Test
    void aTransactionHoldsItsGateUnitFromItsFirstWriteUntilItEnds() throws Exception {
        session.autoCommit(false);
        execute("INSERT INTO items VALUES (1, 10)");
        execute("INSERT INTO items VALUES (2, 20)");

        assertThat(vdb.writeLog().openUnits())
                .as("one unit for the whole transaction")
                .isEqualTo(1);
        vdb.requests().commit(session);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(vdb.writeLog().openUnits()).isZero());
    }

    @Test
    void aReadGoesToOneBackendAndTheNextToAnotherInTurn() throws Exception {
        List<String> answeredBy = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            Map<String, Long> before = served();
            List<Object[]> rows = rows(execute("SELECT name FROM origin"));

            assertThat(rows)
                    .as("one backend's rows, not several backends' together")
                    .hasSize(1);
            String backend = (String) rows.get(0)[0];
            answeredBy.add(backend);
            Map<String, Long> after = served();
            for (String b : NAMES) {
                assertThat(after.get(b) - before.get(b))
                        .as("requests served by %s", b)
                        .isEqualTo(b.equals(backend) ? 1 : 0);
            }
        }
        assertThat(answeredBy).as("round robin").containsExactlyInAnyOrderElementsOf(NAMES);
    }

    @Test
    void aCommittedTransactionEndsOnEveryBackend() throws Exception {
        session.autoCommit(false);
        execute("INSERT INTO items VALUES (1, 10)");
        execute("UPDATE items SET qty = qty + 5 WHERE id = 1");
        long id = session.currentTransaction().id();
        for (String b : NAMES) {
            assertThat(itemsOn(b)).as("%s before the commit", b).isEmpty();
        }

        vdb.requests().commit(session);

        assertThat(session.currentTransaction()).isNull();
        for (String b : NAMES) {
            assertThat(itemsOn(b)).as(b).containsExactly("1:15");
        }
        assertThat(session.transaction().id()).as("the next transaction").isGreaterThan(id);
    }

    @Test
    void aRolledBackTransactionLeavesNothingOnAnyBackend() throws Exception {
        execute("INSERT INTO items VALUES (1, 10)");
        session.autoCommit(false);
        execute("INSERT INTO items VALUES (2, 20)");
        execute("DELETE FROM items WHERE id = 1");

        vdb.requests().rollback(session);

        assertThat(session.currentTransaction()).isNull();
        for (String b : NAMES) {
            assertThat(itemsOn(b)).as(b).containsExactly("1:10");
        }
        assertThat(vdb.backends()).allMatch(DatabaseBackend::isEnabled);
    }

    @Test
    void anExplicitBeginInAutoCommitIsEndedByCommitAsSql() throws Exception {
        execute("BEGIN");
        assertThat(session.inTransactionMode()).isTrue();
        execute("INSERT INTO items VALUES (3, 30)");
        assertThat(itemsOn("h2")).isEmpty();

        execute("COMMIT");

        assertThat(session.inTransactionMode()).isFalse();
        for (String b : NAMES) {
            assertThat(itemsOn(b)).as(b).containsExactly("3:30");
        }
    }

    @Test
    void aReadInATransactionSeesTheTransactionsOwnWrites() throws Exception {
        session.autoCommit(false);
        execute("INSERT INTO items VALUES (4, 40)");

        List<Object[]> rows = rows(execute("SELECT id, qty FROM items"));

        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)).containsExactly(4, 40);
        vdb.requests().rollback(session);
        assertThat(rows(execute("SELECT id FROM items"))).isEmpty();
    }

    @Test
    void aFailedReadAbortsItsTransactionWhichThenCommitsNothing() throws Exception {
        session.autoCommit(false);
        execute("INSERT INTO items VALUES (5, 50)");
        assertThatThrownBy(() -> execute("SELECT * FROM no_such_table")).isInstanceOf(SQLException.class);

        assertThatThrownBy(() -> execute("INSERT INTO items VALUES (6, 60)"))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25P02"));
        assertThatThrownBy(() -> vdb.requests().commit(session))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("rolled back, not committed")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25P02"));

        for (String b : NAMES) {
            assertThat(itemsOn(b)).as(b).isEmpty();
        }
        assertThat(vdb.backends()).allMatch(DatabaseBackend::isEnabled);
        execute("INSERT INTO items VALUES (7, 70)");
        vdb.requests().commit(session);
        assertThat(itemsOn("h1")).as("the next transaction commits").containsExactly("7:70");
    }

    @Test
    void aSessionSettingIsRememberedAndGivenToEveryConnectionItsReadsUse() throws Exception {
        execute("SET @discount = 15");

        assertThat(session.settings()).containsExactly("SET @discount = 15");
        for (int i = 0; i < NAMES.size(); i++) { // round robin: once on each backend
            assertThat(rows(execute("SELECT @discount")).get(0)[0]).isEqualTo(15);
        }
    }

    @Test
    void aRollbackToASavepointUndoesWhatFollowedItOnEveryBackend() throws Exception {
        session.autoCommit(false);
        execute("INSERT INTO items VALUES (1, 10)");
        execute("SAVEPOINT before_second");
        execute("INSERT INTO items VALUES (2, 20)");
        execute("ROLLBACK TO SAVEPOINT before_second");
        execute("INSERT INTO items VALUES (3, 30)");

        vdb.requests().commit(session);

        for (String b : NAMES) {
            assertThat(itemsOn(b)).as(b).containsExactly("1:10", "3:30");
        }
    }

    @Test
    void aStatementEveryBackendRefusesReachesTheClientAndDisablesNobody() throws Exception {
        execute("INSERT INTO items VALUES (1, 10)");

        assertThatThrownBy(() -> execute("INSERT INTO items VALUES (1, 11)"))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));

        assertThat(vdb.backends()).allMatch(DatabaseBackend::isEnabled);
        for (String b : NAMES) {
            assertThat(itemsOn(b)).as(b).containsExactly("1:10");
        }
        assertThat(execute("UPDATE items SET qty = 12 WHERE id = 1").results())
                .as("the session goes on")
                .containsExactly(new UpdateCount(1));
    }

    @Test
    void aWriteFailingOnOneBackendOnlyDisablesThatBackend() throws Exception {
        direct("h2", "DROP TABLE items");

        StatementResult r = execute("INSERT INTO items VALUES (1, 10)");

        assertThat(r.results()).as("the majority's answer").containsExactly(new UpdateCount(1));
        assertThat(backend("h2").state()).isEqualTo(BackendState.DISABLED);
        assertThat(backend("h2").disabledReason()).contains("INSERT INTO items VALUES (1, 10)");
        assertThat(backend("h1").isEnabled()).isTrue();
        assertThat(backend("h3").isEnabled()).isTrue();

        execute("INSERT INTO items VALUES (2, 20)");
        assertThat(itemsOn("h1")).containsExactly("1:10", "2:20");
        assertThat(itemsOn("h3")).containsExactly("1:10", "2:20");
        long h2Served = backend("h2").requestsServed();
        for (int i = 0; i < 4; i++) {
            assertThat(rows(execute("SELECT name FROM origin")).get(0)[0]).isNotEqualTo("h2");
        }
        assertThat(backend("h2").requestsServed())
                .as("a disabled backend gets no more requests")
                .isEqualTo(h2Served);
    }

    @Test
    void aWriteOnlyOneBackendCanRunIsRefusedAndDisablesThatOne() throws Exception {
        // h3 alone holds audit: two backends out of three fail the statement, so the client gets their error
        // and h3, the odd one out, leaves the array.
        assertThatThrownBy(() -> execute("INSERT INTO audit VALUES (1)")).isInstanceOf(SQLException.class);

        assertThat(backend("h3").state()).isEqualTo(BackendState.DISABLED);
        assertThat(backend("h1").isEnabled()).isTrue();
        assertThat(backend("h2").isEnabled()).isTrue();
    }

    @Test
    void aWriteInATransactionFailingOnOneBackendDisablesItAndTheOthersCommit() throws Exception {
        direct("h1", "ALTER TABLE items ADD CONSTRAINT small CHECK (qty < 100)");
        session.autoCommit(false);
        execute("INSERT INTO items VALUES (1, 10)");

        execute("UPDATE items SET qty = 500 WHERE id = 1");

        assertThat(backend("h1").state()).isEqualTo(BackendState.DISABLED);
        vdb.requests().commit(session);
        assertThat(itemsOn("h2")).containsExactly("1:500");
        assertThat(itemsOn("h3")).containsExactly("1:500");
        assertThat(itemsOn("h1"))
                .as("its part of the transaction was rolled back")
                .isEmpty();
    }

    @Test
    void aTableCreatedThroughTheControllerIsOnEveryBackendAndTakesWritesAndReads() throws Exception {
        execute("CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(100))");
        execute("INSERT INTO notes VALUES (1, 'hello')");

        for (String b : NAMES) {
            assertThat(query(b, "SELECT id, body FROM notes")).as(b).containsExactly("1:hello");
        }
        assertThat(rows(execute("SELECT body FROM notes WHERE id = 1")).get(0)).containsExactly("hello");
        assertThat(vdb.backends()).allMatch(DatabaseBackend::isEnabled);
    }

    @Test
    void aRestartedVirtualDatabaseHandsOutIdsAboveThoseItsLogHolds() throws Exception {
        session.autoCommit(false);
        execute("INSERT INTO items VALUES (1, 10)");
        long logged = session.currentTransaction().id();
        vdb.requests().commit(session);

        restartAs(RAIDB1);

        assertThat(vdb.transactionIds().next()).isGreaterThan(logged);
        assertThat(vdb.backends()).as("a clean stop keeps every backend").allMatch(DatabaseBackend::isEnabled);
    }

    @Test
    void underErrorCheckingAReadIsVotedOnAndTheBackendWithOtherRowsIsDisabled() throws Exception {
        direct("h3", "INSERT INTO items VALUES (9, 90)");
        restartAs("<raidb1ec nodes=\"3\"/>");

        assertThat(rows(execute("SELECT id, qty FROM items")))
                .as("the majority's rows")
                .isEmpty();

        assertThat(backend("h3").state()).isEqualTo(BackendState.DISABLED);
        assertThat(backend("h1").isEnabled()).isTrue();
        assertThat(backend("h2").isEnabled()).isTrue();
    }

    @Test
    void underErrorCheckingAReadWithoutAMajorityFailsAndDisablesNobody() throws Exception {
        restartAs("<raidb1ec nodes=\"3\"/>");

        assertThatThrownBy(() -> rows(execute("SELECT name FROM origin")))
                .as("each backend has its own row")
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(CheckedReads.NO_MAJORITY));

        assertThat(vdb.backends()).allMatch(DatabaseBackend::isEnabled);
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** The same backends and data directory under another replication element. */
    private void restartAs(String replication) throws Exception {
        vdb.close();
        vdb = new VirtualDatabase(config(replication), dataDir);
        vdb.start();
        session = new SessionState(2, "app", vdb.transactionIds());
    }

    private StatementResult execute(String sql) throws SQLException {
        return vdb.requests()
                .execute(
                        session,
                        new ExecuteRequest(
                                sql,
                                null,
                                Protocol.MODE_ANY,
                                false,
                                null,
                                Protocol.DEFAULT_FETCH_SIZE,
                                0,
                                0,
                                false,
                                true));
    }

    /** The rows of a result's single result set, as the client would receive them. */
    private static List<Object[]> rows(StatementResult r) throws Exception {
        assertThat(r.results()).hasSize(1);
        try (RowSource source = r.singleRows()) {
            PayloadWriter w = new PayloadWriter().begin(Protocol.ROWS);
            assertThat(source.writeBatch(w, 1000, 1 << 20))
                    .as("every row in one batch")
                    .isTrue();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            w.send(out);
            PayloadReader reader = new FrameReader(new ByteArrayInputStream(out.toByteArray()), 1 << 20).next();
            return RowsetCodec.readBatch(reader, source.columns().length).rows();
        }
    }

    private DatabaseBackend backend(String name) throws SQLException {
        return vdb.backend(name);
    }

    private Map<String, Long> served() {
        return vdb.backends().stream()
                .collect(Collectors.toMap(DatabaseBackend::name, DatabaseBackend::requestsServed));
    }

    /** The items table of one backend, read directly, as "id:qty" in id order. */
    private List<String> itemsOn(String backend) throws SQLException {
        return query(backend, "SELECT id, qty FROM items ORDER BY id");
    }

    /** The rows of a query run directly on one backend, each as its values joined by ':'. */
    private List<String> query(String backend, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url(backend), "sa", "");
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    values.add(rs.getString(i));
                }
                rows.add(String.join(":", values));
            }
        }
        return rows;
    }

    private void direct(String backend, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(url(backend), "sa", "");
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }
}
