package org.raidb.controller.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.test.PostgresClusterExtension;

/**
 * Bad input on the PostgreSQL port, byte by byte: each is answered with an ErrorResponse or a closed
 * connection, and the controller goes on serving the next client. Cleartext password authentication
 * ({@code pgAuthentication="password"}), which a raw client can speak.
 */
class PostgresFrontEndBadInputIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static ControllerFixture raidb;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        raidb = ControllerFixture.start(
                pg.controllerConfig("shop")
                        .controllerAttribute("pgPort", 0)
                        .controllerAttribute("pgAuthentication", "password"),
                "shop");
        port = raidb.controller().pgPort();
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id int PRIMARY KEY, v text)");
        }
    }

    @AfterAll
    static void stop() {
        if (raidb != null) {
            raidb.close();
        }
    }

    /** A fresh client logs in and runs a query: the controller still serves. */
    private static void stillServes() throws IOException {
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            c.query("SELECT 1");
            c.expect('T');
            assertThat(c.expect('D')).isNotNull();
            c.expect('C');
            assertThat(c.expect('Z').body()).containsExactly('I');
        }
    }

    @Test
    void anUnknownProtocolVersionIsRefusedAndClosed() throws IOException {
        try (PgRawClient c = new PgRawClient(port)) {
            c.untyped(4 << 16, PgRawClient.cstrings("user", "app", ""));
            PgRawClient.Message error = c.expect('E');
            assertThat(error.field('C')).isEqualTo("0A000");
            assertThat(error.field('M')).contains("3.0");
            assertThat(c.closedByServer()).isTrue();
        }
        stillServes();
    }

    @Test
    void sslAndGssEncryptionRequestsAreAnsweredNThenStartupGoesOn() throws IOException {
        try (PgRawClient c = new PgRawClient(port)) {
            c.untyped(80877103, new byte[0]);
            assertThat(c.readByte()).isEqualTo('N');
            c.untyped(80877104, new byte[0]);
            assertThat(c.readByte()).isEqualTo('N');
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            c.query("SELECT 1");
            assertThat(c.until('Z').type()).isEqualTo('Z');
        }
    }

    @Test
    void aWrongPasswordGets28P01() throws IOException {
        try (PgRawClient c = new PgRawClient(port)) {
            c.startup(ControllerFixture.USER, "shop");
            c.expect('R');
            c.send('p', PgRawClient.cstrings("wrong"));
            assertThat(c.expect('E').field('C')).isEqualTo("28P01");
            assertThat(c.closedByServer()).isTrue();
        }
        stillServes();
    }

    @Test
    void aGarbageMessageTypeIsAProtocolViolation() throws IOException {
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            c.send('~', new byte[] {1, 2, 3});
            PgRawClient.Message error = c.expect('E');
            assertThat(error.field('C')).isEqualTo("08P01");
            assertThat(error.field('S')).isEqualTo("FATAL");
            assertThat(c.closedByServer()).isTrue();
        }
        stillServes();
    }

    @Test
    void aMessageLengthPastTheFrameLimitIsRefusedBeforeItIsRead() throws IOException {
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            DataOutputStream out = new DataOutputStream(c.rawOut());
            out.write('Q');
            out.writeInt(1 << 30); // 1 GB announced, nothing sent
            out.flush();
            assertThat(c.expect('E').field('C')).isEqualTo("54000");
            assertThat(c.closedByServer()).isTrue();
        }
        stillServes();
    }

    @Test
    void aBindWithTheWrongParameterCountIsAnErrorAndTheSessionGoesOn() throws IOException {
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            // A Parse cut short (no parameter-type count): its fields cannot be read, so the connection ends.
            c.send('P', PgRawClient.cstrings("", "SELECT $1::int + $2::int"));
            assertThat(c.expect('E').field('C')).isEqualTo("08P01");
            assertThat(c.closedByServer()).isTrue();
        }
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            c.send('P', concat(PgRawClient.cstrings("", "SELECT $1::int + $2::int"), new byte[] {0, 0}));
            ByteArrayOutputStream bind = new ByteArrayOutputStream();
            DataOutputStream b = new DataOutputStream(bind);
            b.write(PgRawClient.cstrings("", ""));
            b.writeShort(0); // all text
            b.writeShort(1); // one value where two are needed
            b.writeInt(1);
            b.write('7');
            b.writeShort(0);
            c.send('B', bind.toByteArray());
            c.send('E', concat(PgRawClient.cstrings(""), new byte[] {0, 0, 0, 0}));
            c.send('S', new byte[0]);
            c.expect('1'); // ParseComplete
            PgRawClient.Message error = c.expect('E');
            assertThat(error.field('C')).isEqualTo("08P01");
            assertThat(error.field('M')).contains("supplies 1 parameters").contains("requires 2");
            assertThat(c.expect('Z').body()).containsExactly('I'); // the Execute was skipped up to the Sync
            c.query("SELECT 40 + 2");
            c.expect('T');
            assertThat(new String(c.expect('D').body(), java.nio.charset.StandardCharsets.UTF_8))
                    .endsWith("42");
            assertThat(c.expect('C').body()).startsWith("SELECT 1".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            c.expect('Z');
        }
    }

    /**
     * DEALLOCATE in SQL ends a statement prepared through the protocol (psycopg 3 and pgx trim their caches so),
     * DISCARD ALL ends them all; a name that is not prepared is 26000 and the session goes on.
     */
    @Test
    void deallocateAndDiscardAllEndStatementsPreparedThroughTheProtocol() throws IOException {
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            for (String name : new String[] {"s1", "s2", "s3"}) {
                c.send('P', concat(PgRawClient.cstrings(name, "SELECT 7"), new byte[] {0, 0}));
            }
            c.send('S', new byte[0]);
            c.expect('1');
            c.expect('1');
            c.expect('1');
            c.expect('Z');
            c.query("DEALLOCATE s1");
            assertThat(commandTag(c)).isEqualTo("DEALLOCATE");
            c.expect('Z');
            assertThat(bindFails(c, "s1")).isEqualTo("26000");
            assertThat(bindFails(c, "s2")).isNull(); // the others stay
            c.query("DEALLOCATE PREPARE nope");
            assertThat(c.expect('E').field('C')).isEqualTo("26000");
            c.expect('Z');
            c.query("DISCARD ALL");
            assertThat(commandTag(c)).isEqualTo("DISCARD ALL");
            c.expect('Z');
            assertThat(bindFails(c, "s2")).isEqualTo("26000");
            assertThat(bindFails(c, "s3")).isEqualTo("26000");
            c.query("SELECT 40 + 2");
            c.expect('T');
            c.expect('D');
            c.expect('C');
            c.expect('Z');
        }
        stillServes();
    }

    /** The tag of the CommandComplete that comes next, without its terminating zero byte. */
    private static String commandTag(PgRawClient c) throws IOException {
        byte[] body = c.expect('C').body();
        return new String(body, 0, body.length - 1, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Binds the unnamed portal to a statement and syncs: the error's SQLState, or null when it bound. */
    private static String bindFails(PgRawClient c, String statement) throws IOException {
        c.send('B', concat(PgRawClient.cstrings("", statement), new byte[] {0, 0, 0, 0, 0, 0}));
        c.send('S', new byte[0]);
        PgRawClient.Message m = c.read();
        String state = m.type() == 'E' ? m.field('C') : null;
        c.until('Z');
        return state;
    }

    @Test
    void aClientThatLeavesInATransactionHasItRolledBackEverywhere() throws Exception {
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            c.query("BEGIN; INSERT INTO t VALUES (100, 'left behind')");
            assertThat(c.until('Z').body()).containsExactly('T');
        } // the socket closes mid-transaction
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> ReplicaChecks.assertRowsOnEach(
                        pg.cluster().servers(), "SELECT count(*) FROM t WHERE id = 100", "0|"));
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            c.query("INSERT INTO t VALUES (100, 'kept')");
            PgRawClient.Message done = c.until('C');
            assertThat(new String(done.body(), java.nio.charset.StandardCharsets.UTF_8))
                    .startsWith("INSERT 0 1");
            c.until('Z');
        }
        ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT v FROM t WHERE id = 100", "kept|");
        raidb.assertEveryBackendEnabled();
    }

    @Test
    void anErrorInATransactionBlockIsStatusEUntilRollback() throws IOException {
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            c.query("BEGIN");
            assertThat(c.until('Z').body()).containsExactly('T');
            c.query("SELECT * FROM no_such_table");
            PgRawClient.Message error = c.until('Z');
            assertThat(error.field('C')).isEqualTo("42P01");
            c.query("SELECT 1");
            assertThat(c.until('Z').field('C')).isEqualTo("25P02");
            c.query("SELECT 1");
            PgRawClient.Message again = c.read();
            assertThat(again.type()).isEqualTo('E');
            assertThat(c.expect('Z').body()).containsExactly('E');
            c.query("ROLLBACK");
            assertThat(new String(c.expect('C').body(), java.nio.charset.StandardCharsets.UTF_8))
                    .startsWith("ROLLBACK");
            assertThat(c.expect('Z').body()).containsExactly('I');
        }
    }

    @Test
    void theStatementsOfAQueryAreOneImplicitTransaction() throws Exception {
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            // The second fails (a duplicate key): the first is rolled back with it, as on PostgreSQL.
            c.query("INSERT INTO t VALUES (200, 'first'); INSERT INTO t VALUES (200, 'duplicate')");
            PgRawClient.Message error = c.until('Z');
            assertThat(error.field('C')).isEqualTo("23505");
            c.query("SELECT 1");
            assertThat(c.until('Z').body()).containsExactly('I');
            c.query("INSERT INTO t VALUES (201, 'a'); INSERT INTO t VALUES (202, 'b'); SELECT 1");
            assertThat(c.until('Z').body()).containsExactly('I');
        }
        ReplicaChecks.assertRowsOnEach(
                pg.cluster().servers(), "SELECT id FROM t WHERE id BETWEEN 200 AND 202 ORDER BY id", "201|", "202|");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
