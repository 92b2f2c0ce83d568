package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.TypedText;
import org.raidb.driver.protocol.ValueType;
import org.raidb.test.PostgresClusterExtension;
import org.slf4j.LoggerFactory;

/**
 * What a hostile or broken client can send on the wire, frame by frame: each is answered by an ERROR
 * frame with the right SQLState, costs only its own session, and is logged without flooding the log.
 */
class WireProtocolIT {
    private static final int HANDSHAKE_TIMEOUT_MILLIS = 1500;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(
                pg.controllerConfig("shop").controllerAttribute("handshakeTimeout", HANDSHAKE_TIMEOUT_MILLIS), "shop");
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static int port() {
        return raidb.controller().port();
    }

    private static WireClient login() throws IOException {
        return WireClient.login(port(), "shop", ControllerFixture.USER, ControllerFixture.PASSWORD);
    }

    @Test
    void aProtocolViolationIsAnsweredWithAn08P01FrameAndThenTheConnectionCloses() throws Exception {
        byte[] hugeLength = {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        try (WireClient c = WireClient.connect(port())) {
            c.sendRaw(hugeLength);
            SQLException e = c.nextError();
            assertThat(e.getSQLState()).isEqualTo("08P01");
            assertThat(e.getMessage())
                    .contains("exceeds the maximum of 65536 bytes"); // before login: preLoginMaxFrameBytes
            c.assertClosedByPeer();
        }
        try (WireClient c = login()) {
            c.sendRaw(hugeLength);
            SQLException e = c.nextError();
            assertThat(e.getSQLState()).isEqualTo("08P01");
            assertThat(e.getMessage()).contains("exceeds the maximum of 67108864 bytes"); // after login: maxFrameBytes
            c.assertClosedByPeer();
        }
        try (WireClient c = WireClient.connect(port())) {
            // A login frame far larger than any HELLO: refused from its length, before login.
            WireClient.helloFrame(c.begin(Protocol.HELLO), "shop", "app", "x".repeat(100_000));
            c.send();
            assertThat(c.nextError().getSQLState()).isEqualTo("08P01");
            c.assertClosedByPeer();
        }
    }

    @Test
    void aParameterCountOfBillionsIs08P01AndCostsOnlyItsSession() throws Exception {
        try (Connection survivor = raidb.connect();
                Statement st = survivor.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS survivors (id int)");
            survivor.setAutoCommit(false);
            st.executeUpdate("INSERT INTO survivors VALUES (1)");
            try (WireClient hostile = login()) {
                hostile.begin(Protocol.EXECUTE)
                        .writeString("SELECT 1")
                        .writeInt(1_400_000_000)
                        .writeByte(ValueType.INT)
                        .writeInt(7);
                hostile.send();
                SQLException e = hostile.nextError();
                assertThat(e.getSQLState()).isEqualTo("08P01");
                assertThat(e.getMessage()).contains("implausible element count 1400000000");
                hostile.assertClosedByPeer();
            }
            survivor.commit();
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM survivors")) {
                rs.next();
                assertThat(rs.getInt(1)).isPositive();
            }
        }
        raidb.assertEveryBackendEnabled();
    }

    @Test
    void malformedValuesAre22xxxAndTheSessionGoesOn() throws Exception {
        try (WireClient c = login()) {
            assertValueRefused(
                    c, "SELECT ?::numeric", w -> w.writeByte(ValueType.DECIMAL).writeString("1,5"), "22P02");
            assertValueRefused(
                    c, "SELECT ?::numeric", w -> w.writeByte(ValueType.DECIMAL).writeString(null), "22004");
            assertValueRefused(
                    c, "SELECT ?::date", w -> w.writeByte(ValueType.DATE).writeLong(Long.MAX_VALUE), "22008");
            assertValueRefused(
                    c, "SELECT ?::time", w -> w.writeByte(ValueType.TIME).writeLong(-1), "22008");
            assertValueRefused(
                    c,
                    "SELECT ?::timestamptz",
                    w -> w.writeByte(ValueType.TIMESTAMP_TZ)
                            .writeLong(0)
                            .writeInt(0)
                            .writeInt(100_000),
                    "22009");

            c.sendExecute("SELECT 1", 70_000, w -> {
                for (int i = 0; i < 70_000; i++) {
                    w.writeValue(i);
                }
            });
            SQLException tooMany = c.nextError();
            assertThat(tooMany.getSQLState()).isEqualTo("54000");
            assertThat(tooMany.getMessage()).contains("70000 parameters");

            c.begin(Protocol.BATCH)
                    .writeByte(0)
                    .writeInt(0)
                    .writeInt(0)
                    .writeStringList(null)
                    .writeStringList(java.util.Arrays.asList("SELECT 1", null));
            c.send();
            assertThat(c.nextError().getSQLState()).isEqualTo("22004");

            c.begin(Protocol.METADATA)
                    .writeString("getUDTs")
                    .writeInt(4)
                    .writeValue(null)
                    .writeValue(null)
                    .writeValue("%")
                    .writeValue(new TypedText("int4[]", "2002,x"));
            c.send();
            assertThat(c.nextError().getSQLState()).isEqualTo("22P02");

            c.sendExecute("SELECT ?::numeric * 2", 1, w -> w.writeValue(new BigDecimal("21")));
            assertThat(c.nextSingleValue()).isEqualTo(new BigDecimal("42"));
        }
        raidb.assertEveryBackendEnabled();
    }

    private static void assertValueRefused(WireClient c, String sql, Consumer<PayloadWriter> value, String sqlState)
            throws IOException {
        c.sendExecute(sql, 1, value);
        SQLException e = c.nextError();
        assertThat(e.getSQLState()).as("SQLState for a bad value in " + sql).isEqualTo(sqlState);
        assertThat(e.getMessage()).contains("the session is still usable");
        c.assertAnswers();
    }

    /**
     * A statement larger than the controller accepts (64 MiB by default) used to be cut off with "Broken
     * pipe"; the driver now refuses it before sending (54000) and the connection goes on.
     */
    @Test
    void aStatementOverTheFrameLimitIsRefusedByTheDriverAndTheConnectionGoesOn() throws Exception {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            String huge = "SELECT '" + "x".repeat(70_000_000) + "'";
            assertThatThrownBy(() -> st.executeQuery(huge))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("54000"))
                    .hasMessageContaining("67108864 bytes per frame");
            try (ResultSet rs = st.executeQuery("SELECT 42")) {
                assertThat(rs.next()).isTrue();
            }
        }
        raidb.assertEveryBackendEnabled();
    }

    /**
     * Slowloris: connections that send their HELLO a byte at a time. The deadline is for the whole
     * handshake, so each is closed once handshakeTimeout has passed, however steadily it trickles.
     */
    @Test
    void slowHandshakesAreClosedAtTheDeadlineWhileOthersLogIn() throws Exception {
        int slow = 20;
        byte[] hello = helloBytes();
        List<WireClient> clients = new ArrayList<>();
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        ExecutorService readers = Executors.newFixedThreadPool(slow);
        try {
            List<CompletableFuture<SQLException>> answers = new ArrayList<>();
            for (int i = 0; i < slow; i++) {
                WireClient c = WireClient.connect(port());
                clients.add(c);
                answers.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                SQLException e = c.nextError();
                                c.assertClosedByPeer();
                                return e;
                            } catch (IOException ex) {
                                throw new java.io.UncheckedIOException(ex);
                            }
                        },
                        readers));
            }
            // Ten bytes a second each: the HELLO would take 4 s, well past the 1.5 s deadline.
            int[] sent = new int[slow];
            trickle.scheduleAtFixedRate(
                    () -> {
                        for (int i = 0; i < slow; i++) {
                            if (sent[i] < hello.length) {
                                try {
                                    clients.get(i).sendRaw(new byte[] {hello[sent[i]++]});
                                } catch (IOException closed) {
                                    sent[i] = hello.length;
                                }
                            }
                        }
                    },
                    0,
                    100,
                    TimeUnit.MILLISECONDS);

            try (Connection meanwhile = raidb.connect();
                    Statement st = meanwhile.createStatement();
                    ResultSet rs = st.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
            }
            await().atMost(30, TimeUnit.SECONDS).until(() -> answers.stream().allMatch(CompletableFuture::isDone));
            for (CompletableFuture<SQLException> answer : answers) {
                SQLException e = answer.join();
                assertThat(e.getSQLState()).isEqualTo("08P01");
                assertThat(e.getMessage())
                        .contains("handshake not completed within " + HANDSHAKE_TIMEOUT_MILLIS + " ms");
            }
            trickle.shutdown();
            assertThat(trickle.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(java.util.Arrays.stream(sent).max().orElseThrow())
                    .as("most bytes of its HELLO a slow client sent")
                    .isLessThan(hello.length);
        } finally {
            trickle.shutdownNow();
            readers.shutdownNow();
            for (WireClient c : clients) {
                c.close();
            }
        }
    }

    private static byte[] helloBytes() throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        WireClient.helloFrame(new PayloadWriter(), "shop", ControllerFixture.USER, ControllerFixture.PASSWORD)
                .send(out);
        return out.toByteArray();
    }

    /**
     * A thousand bad frames, half of them protocol violations each on its own connection and half
     * malformed values in one session, from an address no other test uses: a bounded number of log
     * lines, each one line long, none with a stack trace.
     */
    @Test
    void aThousandBadFramesLogABoundedNumberOfLines() throws Exception {
        InetAddress from = InetAddress.getByName("127.0.0.9");
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        ch.qos.logback.classic.Logger root =
                (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        appender.start();
        root.addAppender(appender);
        try {
            Random random = new Random(11);
            for (int i = 0; i < 500; i++) {
                try (WireClient c = WireClient.connect(port(), from)) {
                    byte[] junk = new byte[8];
                    random.nextBytes(junk);
                    junk[0] = (byte) (0x10 | (junk[0] & 0x7f)); // a length far over any limit
                    c.sendRaw(junk);
                    assertThat(c.nextError().getSQLState()).isEqualTo("08P01");
                }
            }
            try (WireClient c =
                    WireClient.login(port(), from, "shop", ControllerFixture.USER, ControllerFixture.PASSWORD)) {
                for (int i = 0; i < 500; i++) {
                    c.sendExecute(
                            "SELECT ?::numeric",
                            1,
                            w -> w.writeByte(ValueType.DECIMAL).writeString("not a number"));
                    assertThat(c.nextError().getSQLState()).isEqualTo("22P02");
                }
            }
        } finally {
            root.detachAppender(appender);
            appender.stop();
        }
        List<ILoggingEvent> lines = appender.list.stream()
                .filter(e -> e.getLoggerName().startsWith("org.raidb")
                        && e.getFormattedMessage().contains("127.0.0.9"))
                .toList();
        assertThat(lines).as("log lines about 1,000 bad frames from 127.0.0.9").hasSizeBetween(2, 10);
        assertThat(lines)
                .anySatisfy(e -> assertThat(e.getFormattedMessage()).startsWith("protocol violation from 127.0.0.9"));
        assertThat(lines)
                .anySatisfy(e -> assertThat(e.getFormattedMessage()).startsWith("invalid value from 127.0.0.9"));
        assertThat(appender.list)
                .as("log events with a stack trace")
                .allSatisfy(e -> assertThat(e.getThrowableProxy()).isNull());
    }
}
