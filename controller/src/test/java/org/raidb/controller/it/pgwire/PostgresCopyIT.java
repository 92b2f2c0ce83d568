package org.raidb.controller.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * COPY through the PostgreSQL front end over three backends (RAIDb-1): pgjdbc's CopyManager copies rows in
 * (text and CSV, values that need escaping or quoting, NULLs, non-ASCII) and out again; every backend ends
 * with the same rows. A COPY that fails (a row with a column too many, a CopyFail, a dropped connection,
 * a ROLLBACK of the transaction it ran in) leaves no row on any backend, and the session goes on.
 */
class PostgresCopyIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static ControllerFixture raidb;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        raidb = ControllerFixture.start(
                pg.controllerConfig("shop")
                        .controllerAttribute("pgPort", 0)
                        .controllerAttribute("pgAuthentication", "password"),
                "shop");
        url = "jdbc:postgresql://127.0.0.1:" + raidb.controller().pgPort() + "/shop";
    }

    @AfterAll
    static void stop() {
        if (raidb != null) {
            raidb.close();
        }
    }

    @BeforeEach
    void table() throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS items");
            st.execute("CREATE TABLE items (id int PRIMARY KEY, name text, price numeric(8,2), added date)");
        }
    }

    private static Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", ControllerFixture.USER);
        p.setProperty("password", ControllerFixture.PASSWORD);
        return DriverManager.getConnection(url, p);
    }

    private static CopyManager copy(Connection c) throws SQLException {
        return c.unwrap(PGConnection.class).getCopyAPI();
    }

    private static List<EmbeddedPostgresServer> backends() {
        return pg.cluster().servers();
    }

    @Test
    void tenThousandTextRowsWithEscapesGoToEveryBackendAndComeBackOutTheSame() throws Exception {
        StringBuilder data = new StringBuilder();
        for (int i = 1; i <= 10_000; i++) {
            String name = switch (i % 5) {
                case 0 -> "tab\\there";
                case 1 -> "new\\nline and back\\\\slash";
                case 2 -> "\\N";
                case 3 -> "caf\u00e9 \u00fcber \u6771\u4eac";
                default -> "plain " + i;
            };
            data.append(i).append('\t').append(name).append('\t').append(i % 7 == 0 ? "\\N" : i + ".25");
            data.append('\t').append("2026-11-").append(10 + i % 18).append('\n');
        }
        try (Connection c = connect()) {
            long copied = copy(c).copyIn("COPY items FROM STDIN", new StringReader(data.toString()));
            assertThat(copied).isEqualTo(10_000);
        }
        ReplicaChecks.assertIdentical(backends());
        ReplicaChecks.assertRowsOnEach(
                backends(), "SELECT count(*), count(name), count(price) FROM items", "10000|8000|8572|");
        ReplicaChecks.assertRowsOnEach(
                backends(),
                "SELECT name FROM items WHERE id IN (1, 3, 5) ORDER BY id",
                "new\nline and back\\slash|",
                "caf\u00e9 \u00fcber \u6771\u4eac|",
                "tab\there|");

        try (Connection c = connect()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long sent = copy(c).copyOut("COPY (SELECT * FROM items ORDER BY id) TO STDOUT", out);
            assertThat(sent).isEqualTo(10_000);
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(data.toString());
        }
    }

    @Test
    void csvWithAHeaderQuotedLineBreaksAndEmptyStringsApartFromNulls() throws Exception {
        String csv = "id,name,price,added\r\n"
                + "1,\"with, comma\",1.50,2026-01-02\r\n"
                + "2,\"two\nlines\",,2026-01-03\r\n"
                + "3,\"\",2.00,\r\n"
                + "4,\"say \"\"hi\"\"\",3.00,2026-01-05\r\n";
        try (Connection c = connect()) {
            long copied = copy(c).copyIn(
                            "COPY items (id, name, price, added) FROM STDIN WITH (FORMAT csv, HEADER true)",
                            new StringReader(csv));
            assertThat(copied).isEqualTo(4);
        }
        ReplicaChecks.assertIdentical(backends());
        ReplicaChecks.assertRowsOnEach(
                backends(),
                "SELECT id, name, price IS NULL, name = '', added IS NULL FROM items ORDER BY id",
                "1|with, comma|f|f|f|",
                "2|two\nlines|t|f|f|",
                "3||f|t|t|",
                "4|say \"hi\"|f|f|f|");
        try (Connection c = connect()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            copy(c).copyOut("COPY items (id, name) TO STDOUT WITH CSV HEADER", out);
            assertThat(out.toString(StandardCharsets.UTF_8))
                    .isEqualTo("id,name\n1,\"with, comma\"\n2,\"two\nlines\"\n3,\"\"\n4,\"say \"\"hi\"\"\"\n");
        }
    }

    @Test
    void aRowWithAColumnTooManyCopiesNothingAndTheSessionGoesOn() throws Exception {
        String data = "1\ta\t1.00\t2026-01-01\n2\tb\t2.00\t2026-01-02\textra\n";
        try (Connection c = connect()) {
            assertThatThrownBy(() -> copy(c).copyIn("COPY items FROM STDIN", new StringReader(data)))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("extra data after last expected column")
                    .hasMessageContaining("line 2")
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22P04"));
            try (Statement st = c.createStatement()) {
                assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM items")).isZero();
                assertThat(st.executeUpdate("INSERT INTO items (id, name) VALUES (9, 'after')"))
                        .isEqualTo(1);
            }
        }
        ReplicaChecks.assertRowsOnEach(backends(), "SELECT id FROM items", "9|");
    }

    @Test
    void aCopyFailFromTheClientCopiesNothing() throws Exception {
        try (Connection c = connect()) {
            CopyIn in = copy(c).copyIn("COPY items (id, name) FROM STDIN");
            byte[] rows = "1\tone\n2\ttwo\n".getBytes(StandardCharsets.UTF_8);
            in.writeToCopy(rows, 0, rows.length);
            in.flushCopy();
            in.cancelCopy();
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM items")).isZero();
        }
        ReplicaChecks.assertRowsOnEach(backends(), "SELECT count(*) FROM items", "0|");
    }

    @Test
    void aClientThatDisconnectsMidCopyLeavesNothingHalfApplied() throws Exception {
        int port = raidb.controller().pgPort();
        try (PgRawClient c = new PgRawClient(port)) {
            c.logIn(ControllerFixture.USER, ControllerFixture.PASSWORD);
            c.query("COPY items (id, name) FROM STDIN");
            c.expect('G');
            StringBuilder rows = new StringBuilder();
            for (int i = 1; i <= 5_000; i++) { // more than one INSERT's worth: some are sent before the cut
                rows.append(i).append("\trow ").append(i).append('\n');
            }
            c.send('d', rows.toString().getBytes(StandardCharsets.UTF_8));
            c.send('d', "5001\thalf a ro".getBytes(StandardCharsets.UTF_8));
        } // closed without CopyDone
        // The session's end rolls its transaction back on every backend: until then its INSERTs hold a lock
        // on the table there, and its rows are uncommitted (a count would see none either way).
        for (EmbeddedPostgresServer s : backends()) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> ReplicaChecks.rowsOn(
                                    s,
                                    "SELECT count(*) FROM pg_locks l JOIN pg_class r ON l.relation = r.oid"
                                            + " WHERE r.relname = 'items'")
                            .equals(List.of("0|")));
        }
        ReplicaChecks.assertRowsOnEach(backends(), "SELECT count(*) FROM items", "0|");
        try (Connection c = connect()) {
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM items")).isZero();
        }
    }

    @Test
    void aCopyInsideATransactionIsUndoneByItsRollback() throws Exception {
        try (Connection c = connect()) {
            c.setAutoCommit(false);
            assertThat(copy(c).copyIn("COPY items (id, name) FROM STDIN", new StringReader("1\tx\n2\ty\n")))
                    .isEqualTo(2);
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM items")).isEqualTo(2);
            c.rollback();
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM items")).isZero();
        }
        ReplicaChecks.assertRowsOnEach(backends(), "SELECT count(*) FROM items", "0|");
    }

    @Test
    void copiesThisFrontEndCannotRunAreRefusedSayingWhatToDo() throws Exception {
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {"COPY items FROM '/etc/passwd'", "0A000", "FROM STDIN"});
        cases.add(new String[] {"COPY items TO PROGRAM 'cat'", "0A000", "TO STDOUT"});
        cases.add(new String[] {"COPY items FROM STDIN WITH (FORMAT binary)", "0A000", "text or csv"});
        cases.add(new String[] {"COPY items FROM STDIN WITH (BOGUS 1)", "42601", "not recognized"});
        cases.add(new String[] {"COPY no_such_table FROM STDIN", "42P01", "no_such_table"});
        cases.add(new String[] {"COPY items (id, nope) FROM STDIN", "42703", "nope"});
        try (Connection c = connect()) {
            for (String[] k : cases) {
                assertThatThrownBy(() -> copy(c).copyIn(k[0], new StringReader("1\tx\n")))
                        .as(k[0])
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining(k[2])
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState())
                                .as(k[0])
                                .isEqualTo(k[1]));
            }
            assertThat(ReplicaChecks.count(c, "SELECT count(*) FROM items")).isZero();
        }
    }
}
