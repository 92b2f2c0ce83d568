package org.raidb.controller.it.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ForkedController;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * RAIDb-1ec over three PostgreSQL servers: every read goes to the three backends and their answers
 * are voted on. One backend whose data was changed behind the controller's back is outvoted and
 * disabled while the client gets the majority's answer; with no majority the client gets XX001 and
 * nothing is disabled. Answers are compared while they stream, so a large read is checked to its
 * last row in bounded memory.
 */
class ErrorCheckingIT {
    private static final String RAIDB1EC = "<raidb1ec readPolicy=\"roundRobin\" completion=\"all\" nodes=\"3\"/>";
    private static final int BIG_ROWS = 200_000;
    private static final String BIG_QUERY = "SELECT id, payload FROM big ORDER BY id";
    /** Near the end of the big result: far past the first batches, in the last one. */
    private static final int NEAR_THE_END = BIG_ROWS - 10;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @BeforeEach
    void freshDatabases() {
        pg.cluster().ensureAllRunning();
        pg.cluster().recreateDatabases();
    }

    private static ControllerFixture start() throws Exception {
        return start(RAIDB1EC);
    }

    private static ControllerFixture start(String level) throws Exception {
        ControllerFixture raidb =
                ControllerFixture.start(pg.controllerConfig("shop").replication(level), "shop");
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance numeric(10,2) NOT NULL)");
            st.execute("INSERT INTO accounts VALUES (1, 100.00), (2, 50.00)");
        }
        return raidb;
    }

    private static void behindTheControllersBack(int server, String sql) throws SQLException {
        try (Connection c = pg.server(server).connect();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** A table of {@code rows} rows on every backend, loaded directly: these tests are about reading it. */
    private static void loadBigTable(int rows) throws SQLException {
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            createBigTable(s, rows, "g * 1.5");
        }
    }

    /** The rows are stored in id order, so that a scan without ORDER BY reads them in that order. */
    private static void createBigTable(EmbeddedPostgresServer s, int rows, String amount) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE big AS SELECT g AS id, md5(g::text) AS payload, " + amount + " AS amount "
                    + "FROM generate_series(1, " + rows + ") g");
        }
    }

    /** What a client read of {@link #BIG_QUERY} amounts to: enough to tell two answers apart. */
    private record Totals(long rows, long idSum, long payloadHash) {
        static Totals of(ResultSet rs) throws SQLException {
            long rows = 0;
            long idSum = 0;
            long payloadHash = 0;
            while (rs.next()) {
                rows++;
                idSum += rs.getLong(1);
                payloadHash = 31 * payloadHash + rs.getString(2).hashCode();
            }
            return new Totals(rows, idSum, payloadHash);
        }
    }

    @Test
    void aLargeReadGivesEveryRowOfTheMajorityAndOutvotesTheBackendWhoseRowNearTheEndDiffers() throws Exception {
        loadBigTable(BIG_ROWS);
        behindTheControllersBack(2, "UPDATE big SET payload = 'changed' WHERE id = " + NEAR_THE_END);
        Totals majority;
        try (Connection c = pg.server(0).connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(BIG_QUERY)) {
            majority = Totals.of(rs);
        }
        try (ControllerFixture raidb = start()) {
            Totals received;
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.setFetchSize(500);
                try (ResultSet rs = st.executeQuery(BIG_QUERY)) {
                    received = Totals.of(rs);
                }
            }
            assertThat(received.rows()).isEqualTo(BIG_ROWS);
            assertThat(received).isEqualTo(majority);
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            await().until(() -> !vdb.backend("pg3").isEnabled());
            assertThat(vdb.backend("pg3").disabledReason())
                    .contains("outvoted on an error-checked read")
                    .contains(BIG_QUERY);
            assertThat(vdb.backend("pg1").isEnabled()).isTrue();
            assertThat(vdb.backend("pg2").isEnabled()).isTrue();
        }
    }

    @Test
    void whenTwoBackendsPartNearTheEndOfALargeReadTheClientGetsAnErrorThereAndNothingIsDisabled() throws Exception {
        loadBigTable(BIG_ROWS);
        behindTheControllersBack(1, "UPDATE big SET payload = 'one' WHERE id = " + NEAR_THE_END);
        behindTheControllersBack(2, "UPDATE big SET payload = 'two' WHERE id = " + NEAR_THE_END);
        try (ControllerFixture raidb = start();
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.setFetchSize(500);
            long[] received = {0};
            assertThatThrownBy(() -> {
                        try (ResultSet rs = st.executeQuery(BIG_QUERY)) {
                            while (rs.next()) {
                                received[0]++;
                            }
                        }
                    })
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("XX001");
                        assertThat(e.getMessage()).contains(BIG_QUERY).contains("No backend was disabled");
                    });
            assertThat(received[0])
                    .as("only the rows agreed on before the answers part")
                    .isPositive()
                    .isLessThan(NEAR_THE_END);
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM big")) {
                assertThat(rs.next())
                        .as("the session still works where the backends agree")
                        .isTrue();
                assertThat(rs.getLong(1)).isEqualTo(BIG_ROWS);
            }
            assertThat(raidb.controller().virtualDatabase("shop").backends()).allMatch(DatabaseBackend::isEnabled);
        }
    }

    /**
     * With nodes="2" a read goes to two of the three backends; when they part near the end, the third
     * is asked there and catches up over the rows already agreed on (hashing them, not sending them).
     */
    @Test
    void aBackendAskedMidStreamCatchesUpAndOutvotesTheOneThatDiffers() throws Exception {
        int rows = 20_000;
        loadBigTable(rows);
        behindTheControllersBack(2, "UPDATE big SET payload = 'changed' WHERE id = " + (rows - 10));
        Totals majority;
        try (Connection c = pg.server(0).connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(BIG_QUERY)) {
            majority = Totals.of(rs);
        }
        try (ControllerFixture raidb = start("<raidb1ec readPolicy=\"roundRobin\" completion=\"all\" nodes=\"2\"/>")) {
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            for (int read = 0;
                    read < 3 && vdb.backend("pg3").isEnabled();
                    read++) { // until pg3 is among the two asked first
                try (Connection c = raidb.connect();
                        Statement st = c.createStatement()) {
                    st.setFetchSize(500);
                    try (ResultSet rs = st.executeQuery(BIG_QUERY)) {
                        assertThat(Totals.of(rs)).isEqualTo(majority);
                    }
                }
            }
            assertThat(vdb.backend("pg3").isEnabled()).isFalse();
            assertThat(vdb.backend("pg3").disabledReason())
                    .contains("outvoted on an error-checked read")
                    .contains("after row");
            assertThat(vdb.backend("pg1").isEnabled()).isTrue();
            assertThat(vdb.backend("pg2").isEnabled()).isTrue();
        }
    }

    /** A backend's SQL error in the middle of the rows is an answer like any other: outvoted there. */
    @Test
    void aBackendFailingOnARowNearTheEndIsOutvotedThereAndTheClientGetsEveryRow() throws Exception {
        int rows = 20_000;
        for (int server = 0; server < 3; server++) {
            createBigTable(
                    pg.server(server),
                    rows,
                    server == 2 ? "CASE WHEN g = " + (rows - 10) + " THEN 0 ELSE g * 1.5 END" : "g * 1.5");
        }
        try (ControllerFixture raidb = start();
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.setFetchSize(500);
            long received = 0;
            try (ResultSet rs = st.executeQuery("SELECT id, 1 / amount FROM big")) { // pg3 divides by zero near the end
                while (rs.next()) {
                    received++;
                }
            }
            assertThat(received).isEqualTo(rows);
            DatabaseBackend pg3 = raidb.controller().virtualDatabase("shop").backend("pg3");
            assertThat(pg3.isEnabled()).isFalse();
            assertThat(pg3.disabledReason())
                    .contains("outvoted on an error-checked read")
                    .contains("after row");
        }
    }

    /** An error every backend returns in the middle of the rows reaches the client there; nobody is outvoted. */
    @Test
    void anErrorEveryBackendReturnsNearTheEndGoesToTheClientThere() throws Exception {
        int rows = 20_000;
        loadBigTable(rows);
        try (ControllerFixture raidb = start();
                Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.setFetchSize(500);
            long[] received = {0};
            assertThatThrownBy(() -> {
                        try (ResultSet rs = st.executeQuery("SELECT id, 1 / (id - " + (rows - 10) + ") FROM big")) {
                            while (rs.next()) {
                                received[0]++;
                            }
                        }
                    })
                    .isInstanceOfSatisfying(
                            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22012"));
            assertThat(received[0])
                    .as("the rows before the failing one's batch")
                    .isPositive()
                    .isLessThan(rows - 10);
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM big")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(rows);
            }
            assertThat(raidb.controller().virtualDatabase("shop").backends()).allMatch(DatabaseBackend::isEnabled);
        }
    }

    /**
     * Three copies of 600,000 rows held to be compared would take several times the 96 MiB heap of
     * this controller (one copy alone, about 170 bytes a row, would not fit): it serves the read only
     * if the answers are compared while they stream.
     */
    @Test
    void aLargeErrorCheckedReadStreamsThroughAControllerWhoseHeapCouldNotHoldOneCopyOfIt() throws Exception {
        int rows = 600_000;
        loadBigTable(rows);
        ForkedController controller =
                ForkedController.start(pg.controllerConfig("shop").replication(RAIDB1EC), "shop", "96m");
        Totals received;
        try {
            try (Connection c = controller.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(BIG_QUERY)) {
                received = Totals.of(rs);
            }
            assertThat(controller.isAlive())
                    .as("controller still running after the read (no OutOfMemoryError)")
                    .isTrue();
        } finally {
            controller.close();
        }
        assertThat(controller.log()).doesNotContain("OutOfMemoryError").doesNotContain("outvoted");
        assertThat(received.rows()).isEqualTo(rows);
        assertThat(received.idSum()).isEqualTo((long) rows * (rows + 1) / 2);
    }

    @Test
    void anErrorCheckedReadInATransactionIsVotedOnRowByRowOnTheTransactionsConnections() throws Exception {
        try (ControllerFixture raidb = start()) {
            behindTheControllersBack(2, "UPDATE accounts SET balance = 0.02 WHERE id = 2");
            try (Connection c = raidb.connect()) {
                c.setAutoCommit(false);
                try (Statement st = c.createStatement()) {
                    assertThat(st.executeUpdate("UPDATE accounts SET balance = balance + 1 WHERE id = 1"))
                            .isEqualTo(1);
                    st.setFetchSize(1); // a batch, and a vote, per row
                    try (ResultSet rs = st.executeQuery("SELECT id, balance FROM accounts ORDER BY id")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getBigDecimal(2))
                                .as("the transaction's own write")
                                .isEqualByComparingTo("101.00");
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("50.00");
                        assertThat(rs.next()).isFalse();
                    }
                }
                c.commit();
            }
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            assertThat(vdb.backend("pg3").isEnabled()).isFalse();
            assertThat(vdb.backend("pg3").disabledReason())
                    .contains("outvoted on an error-checked read")
                    .contains("after row 1");
            for (int server = 0; server < 2; server++) {
                try (Connection c = pg.server(server).connect();
                        Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT balance FROM accounts WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBigDecimal(1))
                            .as("committed on pg" + (server + 1))
                            .isEqualByComparingTo("101.00");
                }
            }
        }
    }

    @Test
    void clientsClosingErrorCheckedReadsEarlyLeaveNoBackendConnectionInUse() throws Exception {
        try (ControllerFixture raidb = start()) {
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE numbers (n int PRIMARY KEY)");
                st.execute("INSERT INTO numbers SELECT g FROM generate_series(1, 5000) g");
                st.setFetchSize(100);
                // More reads than a backend pool has connections (20): a connection kept by each would exhaust it.
                for (int read = 0; read < 50; read++) {
                    try (ResultSet rs = st.executeQuery("SELECT n FROM numbers ORDER BY n")) {
                        for (int row = 1; row <= 10; row++) {
                            assertThat(rs.next()).isTrue();
                            assertThat(rs.getInt(1)).isEqualTo(row);
                        }
                    }
                }
            }
            // A streaming read's connection is in a transaction until its cursor is closed and it is given back.
            for (EmbeddedPostgresServer s : pg.cluster().servers()) {
                await().untilAsserted(() ->
                        assertThat(readsInProgress(s)).as(s.name()).isZero());
            }
            assertThat(raidb.controller().virtualDatabase("shop").backends()).allMatch(DatabaseBackend::isEnabled);
        }
    }

    @Test
    void aBackendWithNoFreeConnectionGivesNoAnswerAndStaysEnabled() throws Exception {
        ControllerFixture raidb = ControllerFixture.start(
                pg.controllerConfig("shop").replication(RAIDB1EC).poolSize("pg3", 1), "shop");
        try (raidb;
                Connection reader = raidb.connect();
                Statement open = reader.createStatement();
                Connection other = raidb.connect();
                Statement st = other.createStatement()) {
            st.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance numeric(10,2) NOT NULL)");
            st.execute("INSERT INTO accounts VALUES (1, 100.00)");
            st.execute("CREATE TABLE numbers (n int PRIMARY KEY)");
            st.execute("INSERT INTO numbers SELECT g FROM generate_series(1, 5000) g");
            open.setFetchSize(100);
            try (ResultSet streaming = open.executeQuery("SELECT n FROM numbers ORDER BY n")) {
                assertThat(streaming.next()).isTrue(); // its cursors hold a connection on each backend: pg3's only one
                try (ResultSet rs = st.executeQuery("SELECT balance FROM accounts WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBigDecimal(1))
                            .isEqualByComparingTo("100.00"); // pg1 and pg2 agree: a majority of 3
                }
                VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
                assertThat(vdb.backend("pg3").isEnabled())
                        .as("a busy pool says nothing about pg3's data")
                        .isTrue();
                int rows = 1;
                while (streaming.next()) {
                    rows++;
                }
                assertThat(rows).isEqualTo(5000);
            }
        }
    }

    private static long readsInProgress(EmbeddedPostgresServer s) throws SQLException {
        try (Connection c = s.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = 'shop' AND state LIKE 'idle in transaction%'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aBackendWhoseDataChangedIsOutvotedAndTheClientGetsTheMajorityAnswer() throws Exception {
        try (ControllerFixture raidb = start()) {
            behindTheControllersBack(2, "UPDATE accounts SET balance = 999.99 WHERE id = 1");
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            for (int round = 0; round < 3; round++) { // whichever backend the read policy starts with
                try (Connection c = raidb.connect();
                        Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT balance FROM accounts WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("100.00");
                }
            }
            DatabaseBackend pg3 = vdb.backend("pg3");
            assertThat(pg3.isEnabled()).isFalse();
            assertThat(pg3.disabledReason())
                    .contains("outvoted on an error-checked read")
                    .contains("SELECT balance FROM accounts WHERE id = 1");
            assertThat(vdb.backend("pg1").isEnabled()).isTrue();
            assertThat(vdb.backend("pg2").isEnabled()).isTrue();
        }
    }

    /** RAIDb-2ec: accounts on all three backends (create rule all), so its reads are voted on by three. */
    @Test
    void raidb2ecOutvotesTheBackendWhoseCopyDiffers() throws Exception {
        try (ControllerFixture raidb = start("<raidb2ec readPolicy=\"leastPending\" completion=\"all\" nodes=\"3\">"
                + "<createTable policy=\"all\"/></raidb2ec>")) {
            behindTheControllersBack(0, "UPDATE accounts SET balance = 0.01 WHERE id = 2");
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT id, balance FROM accounts ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("50.00");
            }
            VirtualDatabase vdb = raidb.controller().virtualDatabase("shop");
            assertThat(vdb.backend("pg1").isEnabled())
                    .as("pg1, whose copy differs")
                    .isFalse();
            assertThat(vdb.backend("pg1").disabledReason()).contains("outvoted on an error-checked read");
            assertThat(vdb.backend("pg2").isEnabled()).isTrue();
            assertThat(vdb.backend("pg3").isEnabled()).isTrue();
        }
    }

    @Test
    void withoutAMajorityTheClientGetsAnErrorAndNothingIsDisabled() throws Exception {
        try (ControllerFixture raidb = start()) {
            behindTheControllersBack(1, "UPDATE accounts SET balance = 1.00 WHERE id = 2");
            behindTheControllersBack(2, "UPDATE accounts SET balance = 2.00 WHERE id = 2");
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                assertThatThrownBy(() -> st.executeQuery("SELECT balance FROM accounts WHERE id = 2"))
                        .isInstanceOfSatisfying(SQLException.class, e -> {
                            assertThat(e.getSQLState()).isEqualTo("XX001");
                            assertThat(e.getMessage())
                                    .contains("SELECT balance FROM accounts WHERE id = 2")
                                    .contains("No backend was disabled");
                        });
                try (ResultSet rs = st.executeQuery("SELECT balance FROM accounts WHERE id = 1")) {
                    assertThat(rs.next())
                            .as("the session still works where the backends agree")
                            .isTrue();
                    assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("100.00");
                }
            }
            assertThat(raidb.controller().virtualDatabase("shop").backends()).allMatch(DatabaseBackend::isEnabled);
        }
    }
}
