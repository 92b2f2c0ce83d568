package org.raidb.controller.it.transactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * A REPEATABLE READ or SERIALIZABLE transaction sees one snapshot, as on one PostgreSQL server: its
 * reads all go to one backend, whichever way the client chose the isolation level (JDBC, BEGIN,
 * SET TRANSACTION, session defaults). Each scenario runs through pgjdbc straight on one server (its
 * {@code postgres} database) and through RAIDb over three backends that spread reads round robin.
 */
class TransactionSnapshotIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @FunctionalInterface
    interface Connections {
        Connection open() throws SQLException;
    }

    @FunctionalInterface
    interface Step {
        void on(Connection c) throws SQLException;
    }

    /** The ways a client chooses the isolation of a transaction, and ends it. */
    enum Isolation {
        JDBC_REPEATABLE_READ(
                c -> {
                    c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                    c.setAutoCommit(false);
                },
                Connection::commit,
                true),
        JDBC_SERIALIZABLE(
                c -> {
                    c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                    c.setAutoCommit(false);
                },
                Connection::commit,
                true),
        BEGIN_ISOLATION_LEVEL(c -> run(c, "BEGIN ISOLATION LEVEL REPEATABLE READ"), c -> run(c, "COMMIT"), true),
        START_TRANSACTION(
                c -> run(c, "START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY"), c -> run(c, "COMMIT"), true),
        SET_TRANSACTION(
                c -> {
                    c.setAutoCommit(false);
                    run(c, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
                },
                Connection::commit,
                true),
        SESSION_CHARACTERISTICS(
                c -> {
                    run(c, "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                    c.setAutoCommit(false);
                },
                Connection::commit,
                true),
        DEFAULT_TRANSACTION_ISOLATION(
                c -> {
                    run(c, "SET default_transaction_isolation = 'serializable'");
                    run(c, "BEGIN");
                },
                c -> run(c, "COMMIT"),
                true),
        /** Each statement has its own snapshot: reads may spread, and see what committed meanwhile. */
        READ_COMMITTED(c -> c.setAutoCommit(false), Connection::commit, false);

        final Step begin;
        final Step end;
        final boolean oneSnapshot;

        Isolation(Step begin, Step end, boolean oneSnapshot) {
            this.begin = begin;
            this.end = end;
            this.oneSnapshot = oneSnapshot;
        }
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void aTransactionCountsWhatItsSnapshotHolds(Isolation isolation) throws Exception {
        String table = "counted_" + isolation.name().toLowerCase(Locale.ROOT);
        List<Long> single = countsWhileAnotherSessionInserts(() -> pg.server(0).connect("postgres"), isolation, table);
        assertThat(single)
                .containsExactlyElementsOf(isolation.oneSnapshot ? List.of(4L, 4L, 4L, 6L) : List.of(4L, 5L, 6L, 6L));
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop")) {
            assertThat(countsWhileAnotherSessionInserts(raidb::connect, isolation, table))
                    .isEqualTo(single);
        }
    }

    private static List<Long> countsWhileAnotherSessionInserts(Connections db, Isolation isolation, String table)
            throws SQLException {
        try (Connection setup = db.open()) {
            run(setup, "DROP TABLE IF EXISTS " + table);
            run(setup, "CREATE TABLE " + table + " (id int PRIMARY KEY)");
            run(setup, "INSERT INTO " + table + " VALUES (1), (2), (3), (4)");
        }
        List<Long> seen = new ArrayList<>();
        try (Connection reader = db.open();
                Connection writer = db.open()) {
            isolation.begin.on(reader);
            seen.add(count(reader, table));
            for (int id = 5; id <= 6; id++) {
                run(writer, "INSERT INTO " + table + " VALUES (" + id + ")");
                seen.add(count(reader, table));
            }
            isolation.end.on(reader);
            seen.add(count(reader, table));
        }
        return seen;
    }

    @Test
    void aRepeatableReadTransactionWhoseBackendFailsIsToldToRunAgain() throws Exception {
        try (ControllerFixture raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
                Connection reader = raidb.connect()) {
            run(reader, "CREATE TABLE snapshot_lost (id int PRIMARY KEY)");
            run(reader, "INSERT INTO snapshot_lost VALUES (1), (2)");
            reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            reader.setAutoCommit(false);
            assertThat(count(reader, "snapshot_lost")).isEqualTo(2);
            EmbeddedPostgresServer snapshotServer = onlyServerInATransaction();
            snapshotServer.kill();
            assertThatThrownBy(() -> count(reader, "snapshot_lost"))
                    .isInstanceOf(SQLTransactionRollbackException.class)
                    .hasMessageContaining(snapshotServer.name())
                    .hasMessageContaining("run the transaction again")
                    .extracting(e -> ((SQLException) e).getSQLState())
                    .isEqualTo("40001");
            reader.rollback();
            assertThat(count(reader, "snapshot_lost"))
                    .as("the next transaction, on another backend")
                    .isEqualTo(2);
            reader.commit();
        }
    }

    /** The one running server where a client session of the virtual database is idle in a transaction. */
    private static EmbeddedPostgresServer onlyServerInATransaction() throws SQLException {
        List<EmbeddedPostgresServer> found = new ArrayList<>();
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            try (Connection c = s.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE datname = 'shop'"
                            + " AND state = 'idle in transaction'")) {
                rs.next();
                if (rs.getInt(1) > 0) {
                    found.add(s);
                }
            }
        }
        assertThat(found).as("servers where the transaction has read").hasSize(1);
        return found.get(0);
    }

    private static long count(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
