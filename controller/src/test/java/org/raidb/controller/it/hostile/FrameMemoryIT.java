package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.PostgresClusterExtension;

/**
 * Frames that announce 64 MiB and never come. The controller used to allocate the announced length
 * before reading a byte of it: 120 such connections filled a 6.6 GB heap. The controller runs in this
 * JVM, so its heap is this test's heap, measured after a GC.
 */
class FrameMemoryIT {
    private static final int CONNECTIONS = 200;
    private static final long BUDGET_BYTES = 64L << 20;
    /** The 5-byte header of the attack: a frame of 67,002,304 bytes (just under 64 MiB), type 'H' or 'E'. */
    private static final byte[] ANNOUNCES_64_MIB = {0x03, (byte) 0xFE, 0x5F, (byte) 0xC0};

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(1).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(pg.controllerConfig("shop"), "shop");
        try (Connection c = raidb.connect()) {
            assertThat(c.isValid(5)).isTrue(); // classes loaded, pools up: part of the idle heap
        }
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    private static long usedHeapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static byte[] header(char type) {
        byte[] h = java.util.Arrays.copyOf(ANNOUNCES_64_MIB, 5);
        h[4] = (byte) type;
        return h;
    }

    @Test
    void twoHundredConnectionsAnnouncing64MiBBeforeLoginCostNoHeap() throws Exception {
        long idle = usedHeapAfterGc();
        List<WireClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                WireClient c = WireClient.connect(raidb.controller().port());
                clients.add(c);
                c.sendRaw(header('H'));
            }
            for (WireClient c : clients) {
                SQLException refused = c.nextError();
                assertThat(refused.getSQLState()).isEqualTo("08P01");
                assertThat(refused.getMessage()).contains("frame of 67002304 bytes exceeds the maximum of 65536 bytes");
            }
            long used = usedHeapAfterGc();
            assertThat(used - idle)
                    .as("heap above idle with %d refused connections open", CONNECTIONS)
                    .isLessThan(BUDGET_BYTES);
        } finally {
            for (WireClient c : clients) {
                c.close();
            }
        }
        assertAnswersAtOnce();
    }

    /**
     * After login 64 MiB frames are allowed, but the controller holds only what has arrived: two hundred
     * sessions each sending the first kilobyte of one cost a few megabytes, not 13 GB.
     */
    @Test
    void twoHundredSessionsSendingTheStartOf64MiBFramesHoldOnlyWhatArrived() throws Exception {
        List<WireClient> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                sessions.add(WireClient.login(
                        raidb.controller().port(), "shop", ControllerFixture.USER, ControllerFixture.PASSWORD));
            }
            long idle = usedHeapAfterGc();
            for (WireClient c : sessions) {
                c.sendRaw(header('E'));
                c.sendRaw(new byte[1000]);
            }
            // Everything sent has been read by the controller once its side of each connection has nothing left to
            // read.
            await().atMost(60, TimeUnit.SECONDS)
                    .until(() ->
                            controllerReceiveQueues(sessions).values().stream().allMatch(q -> q == 0));
            long used = usedHeapAfterGc();
            assertThat(used - idle)
                    .as("heap above idle with %d sessions in the middle of a 64 MiB frame", CONNECTIONS)
                    .isLessThan(BUDGET_BYTES);
        } finally {
            for (WireClient c : sessions) {
                c.close();
            }
        }
        assertAnswersAtOnce();
    }

    /**
     * Bytes received but not yet read by the controller on its side of each client's connection, by the
     * client's port (Linux /proc/net/tcp and tcp6, column rx_queue). A connection not listed yet counts as
     * not read.
     */
    private static Map<Integer, Long> controllerReceiveQueues(List<WireClient> clients) throws IOException {
        Map<Integer, Long> byClientPort = new HashMap<>();
        for (WireClient c : clients) {
            byClientPort.put(c.socket().getLocalPort(), -1L);
        }
        int controllerPort = raidb.controller().port();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                int localPort = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16);
                int remotePort = Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16);
                if (localPort == controllerPort && byClientPort.containsKey(remotePort)) {
                    byClientPort.put(remotePort, Long.parseLong(f[4].substring(f[4].indexOf(':') + 1), 16));
                }
            }
        }
        return byClientPort;
    }

    private static void assertAnswersAtOnce() throws Exception {
        try (Connection c = raidb.connect()) {
            assertThat(c.isValid(1)).isTrue();
        }
    }
}
