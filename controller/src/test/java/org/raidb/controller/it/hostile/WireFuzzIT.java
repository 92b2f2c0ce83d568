package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.FrameReader;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;
import org.slf4j.LoggerFactory;

/**
 * A hundred thousand mutated frames against a controller over real PostgreSQL backends, before and
 * after login: the controller must answer every whole frame with a well-formed frame (never XX000),
 * never run out of memory, never disable a backend, and be back to its idle threads and file
 * descriptors afterwards, answering a normal client at once. The seed is printed; run again with
 * {@code -Draidb.fuzz.seed=N} to replay a failure.
 */
class WireFuzzIT {
    private static final long SEED = Long.getLong("raidb.fuzz.seed", System.nanoTime());
    /** Workers of each kind; frames per worker, balanced so that both kinds take about as long. */
    private static final int WORKERS = 2;

    private static final int PRE_LOGIN_FRAMES_PER_WORKER = 35_000;
    private static final int POST_LOGIN_FRAMES_PER_WORKER = 15_000;
    /**
     * Frames a logged-in fuzz session sends before it starts afresh, so that one bad state does not stick and
     * a transaction it opened (holding conflict classes the other session may wait for) does not last.
     */
    private static final int FRAMES_PER_SESSION = 100;

    private static final int PRE_LOGIN_LIMIT = 64 * 1024;
    private static final int POST_LOGIN_LIMIT = 64 * 1024 * 1024;
    /** A frame announcing up to this many bytes more than it holds is completed with junk; beyond, it is abandoned. */
    private static final int MAX_PADDING = 64 * 1024;

    private static final int READ_TIMEOUT_MILLIS = 15_000;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    /** What the controller answered, over all workers. */
    private static final class Tally {
        final LongAdder frames = new LongAdder();
        final Map<String, LongAdder> answers = new ConcurrentHashMap<>();
        final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        final Map<String, Long> workerMillis = new ConcurrentHashMap<>();

        void timed(String worker, long startNanos) {
            workerMillis.put(worker, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        }

        void answer(String kind) {
            answers.computeIfAbsent(kind, k -> new LongAdder()).increment();
        }

        void failure(String what, byte[] frame) {
            if (failures.size() < 20) {
                failures.add(what + " after frame " + HexFormat.of().formatHex(frame, 0, Math.min(frame.length, 200)));
            }
        }
    }

    @Test
    void aHundredThousandMutatedFramesLeaveTheControllerWhole() throws Exception {
        System.out.println("WireFuzzIT seed " + SEED + " (replay with -Draidb.fuzz.seed=" + SEED + ")");
        ControllerConfigXml config = pg.controllerConfig("shop").extraXml("<scheduler lockTimeout=\"500\"/>");
        pg.cluster().servers().forEach(s -> config.poolSize(s.name(), 4));
        try (ControllerFixture raidb = ControllerFixture.start(config, "shop")) {
            int port = raidb.controller().port();
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                for (int w = 0; w < WORKERS; w++) { // one table per logged-in worker: fewer lock waits between them
                    st.execute(FrameCorpus.createTable(table(w)));
                }
            } // also makes 127.0.0.1 an address that "app" logged in from
            InetAddress sessions = InetAddress.getByName("127.0.0.2");
            WireClient.login(port, sessions, "shop", ControllerFixture.USER, ControllerFixture.PASSWORD)
                    .close();
            await().atMost(30, TimeUnit.SECONDS).until(() -> sessionThreads() == 0);
            int idleThreads = ManagementFactory.getThreadMXBean().getThreadCount();
            long idleFds = openFileDescriptors();

            ListAppender<ILoggingEvent> log = new ListAppender<>();
            ch.qos.logback.classic.Logger root =
                    (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
            log.start();
            root.addAppender(log);
            Tally tally = new Tally();
            long start = System.nanoTime();
            ExecutorService workers = Executors.newFixedThreadPool(2 * WORKERS);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int w = 0; w < WORKERS; w++) {
                    Random before = new Random(SEED + 2 * w);
                    Random after = new Random(SEED + 2 * w + 1);
                    InetAddress from = InetAddress.getByName("127.0.0." + (3 + w));
                    String table = table(w);
                    running.add(workers.submit(() -> fuzzBeforeLogin(port, from, before, tally)));
                    running.add(workers.submit(() -> fuzzAfterLogin(port, sessions, table, after, tally)));
                }
                for (Future<?> f : running) {
                    f.get();
                }
            } finally {
                workers.shutdownNow();
                assertThat(workers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
                root.detachAppender(log);
                log.stop();
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.printf(
                    "WireFuzzIT: %d frames in %d ms (%d/s; ms per worker %s), answers %s, %d log lines%n",
                    tally.frames.sum(),
                    millis,
                    tally.frames.sum() * 1000 / Math.max(1, millis),
                    new TreeMap<>(tally.workerMillis),
                    new TreeMap<>(tally.answers),
                    log.list.size());

            assertThat(tally.frames.sum()).isGreaterThanOrEqualTo(100_000);
            assertThat(tally.failures)
                    .as("internal errors, malformed answers and stalls (seed %d)", SEED)
                    .isEmpty();
            assertThat(tally.answers).as("answers").doesNotContainKey("XX000");
            assertThat(log.list)
                    .as("log events about running out of memory or internal errors")
                    .noneSatisfy(e -> assertThat(e.getFormattedMessage() + e.getThrowableProxy())
                            .containsAnyOf("OutOfMemoryError", "internal error"));
            raidb.assertEveryBackendEnabled();
            // Lingering closes end within a second; the parser's pool threads idle out; allow a few pool threads of
            // slack.
            await().atMost(30, TimeUnit.SECONDS).untilAsserted(() -> {
                assertThat(sessionThreads()).as("session threads").isZero();
                assertThat(ManagementFactory.getThreadMXBean().getThreadCount())
                        .as("threads")
                        .isLessThanOrEqualTo(idleThreads + 5);
                assertThat(openFileDescriptors()).as("open file descriptors").isLessThanOrEqualTo(idleFds + 5);
            });
            long connectStart = System.nanoTime();
            try (Connection c = raidb.connect();
                    Statement st = c.createStatement()) {
                assertThat(st.executeQuery("SELECT count(*) FROM " + table(0)).next())
                        .isTrue();
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - connectStart))
                    .as("ms for a normal client afterwards")
                    .isLessThan(1000);
        }
    }

    /** Each mutated first frame on a connection of its own, from {@code from}. */
    private static Void fuzzBeforeLogin(int port, InetAddress from, Random random, Tally tally) throws IOException {
        FrameMutator mutator = new FrameMutator(random);
        List<byte[]> corpus = FrameCorpus.beforeLogin("shop", ControllerFixture.USER, ControllerFixture.PASSWORD);
        long start = System.nanoTime();
        for (int i = 0; i < PRE_LOGIN_FRAMES_PER_WORKER; i++) {
            byte[] frame = mutator.mutate(corpus.get(random.nextInt(corpus.size())));
            try (Socket s = connect(port, from)) {
                boolean answered = deliver(s.getOutputStream(), frame, PRE_LOGIN_LIMIT, random);
                tally.frames.increment();
                if (answered) {
                    readAnswer(s, frame, tally);
                }
                s.setSoLinger(true, 0); // no TIME_WAIT: tens of thousands of connections from one address
            }
        }
        tally.timed("before login " + from.getHostAddress(), start);
        return null;
    }

    /** Mutated requests in logged-in sessions, starting a new session whenever the controller ends one. */
    private static Void fuzzAfterLogin(int port, InetAddress from, String table, Random random, Tally tally)
            throws IOException {
        FrameMutator mutator = new FrameMutator(random);
        List<byte[]> corpus = FrameCorpus.afterLogin(table);
        Socket session = null;
        int sent = 0;
        long start = System.nanoTime();
        try {
            for (int i = 0; i < POST_LOGIN_FRAMES_PER_WORKER; i++) {
                if (session == null || sent == FRAMES_PER_SESSION) {
                    close(session);
                    session = loggedIn(port, from);
                    sent = 0;
                }
                byte[] frame = mutator.mutate(corpus.get(random.nextInt(corpus.size())));
                boolean answered = deliver(session.getOutputStream(), frame, POST_LOGIN_LIMIT, random);
                tally.frames.increment();
                sent++;
                if (!answered || !readAnswer(session, frame, tally)) {
                    close(session);
                    session = null;
                }
            }
        } finally {
            close(session);
        }
        tally.timed("after login on " + table, start);
        return null;
    }

    /**
     * Sends a mutated frame so that the stream stays in step: a frame announcing less than it holds is cut
     * to its length, one announcing a little more is completed with junk. False when the frame was left
     * unfinished (it announces far more than it holds): no answer comes, the caller hangs up.
     */
    private static boolean deliver(OutputStream out, byte[] frame, int limit, Random random) throws IOException {
        int announced = FrameMutator.announcedLength(frame);
        int held = frame.length - 4;
        if (announced <= 0 || announced > limit || announced == held) {
            out.write(frame); // refused from its length alone, or whole
        } else if (announced < held) {
            out.write(frame, 0, 4 + announced);
        } else if (announced - held <= MAX_PADDING) {
            byte[] padding = new byte[announced - held];
            random.nextBytes(padding);
            out.write(frame);
            out.write(padding);
        } else {
            out.write(frame);
            out.flush();
            return false;
        }
        out.flush();
        return true;
    }

    /**
     * Reads the one answer to a frame. False when the session is over: the controller closed it (after an
     * 08P01 ERROR, a CLOSE or a CANCEL) or it stalled.
     */
    private static boolean readAnswer(Socket s, byte[] frame, Tally tally) throws IOException {
        try {
            PayloadReader r = new FrameReader(new BufferedInputStream(s.getInputStream(), 1), POST_LOGIN_LIMIT).next();
            if (r.type() != Protocol.ERROR) {
                tally.answer(String.valueOf((char) r.type()));
                return true;
            }
            SQLException e = ErrorFrame.read(r);
            tally.answer(e.getSQLState());
            if (e.getSQLState() == null || e.getSQLState().equals("XX000")) {
                tally.failure("internal error " + e.getSQLState() + ": " + e.getMessage(), frame);
            }
            return !"08P01".equals(e.getSQLState());
        } catch (SocketTimeoutException stalled) {
            tally.failure("no answer within " + READ_TIMEOUT_MILLIS + " ms", frame);
            return false;
        } catch (ProtocolException malformed) {
            tally.failure("malformed answer: " + malformed.getMessage(), frame);
            return false;
        } catch (EOFException | SocketException closed) {
            tally.answer("closed");
            return false;
        }
    }

    private static String table(int worker) {
        return "fuzz_" + worker;
    }

    private static Socket connect(int port, InetAddress from) throws IOException {
        Socket s = new Socket();
        s.bind(new InetSocketAddress(from, 0));
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        s.setSoTimeout(READ_TIMEOUT_MILLIS);
        s.setTcpNoDelay(true);
        return s;
    }

    private static Socket loggedIn(int port, InetAddress from) throws IOException {
        Socket s = connect(port, from);
        WireClient.helloFrame(
                        new org.raidb.driver.protocol.PayloadWriter(),
                        "shop",
                        ControllerFixture.USER,
                        ControllerFixture.PASSWORD)
                .send(s.getOutputStream());
        PayloadReader answer = new FrameReader(new BufferedInputStream(s.getInputStream(), 1), POST_LOGIN_LIMIT).next();
        assertThat((char) answer.type()).as("login of a fuzz session").isEqualTo((char) Protocol.HELLO_OK);
        return s;
    }

    private static void close(Socket s) throws IOException {
        if (s != null) {
            s.setSoLinger(true, 0);
            s.close();
        }
    }

    private static long sessionThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("raidb-session-"))
                .count();
    }

    private static long openFileDescriptors() {
        return ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getOpenFileDescriptorCount();
    }
}
