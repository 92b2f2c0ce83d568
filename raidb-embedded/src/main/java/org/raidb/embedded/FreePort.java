package org.raidb.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback port helpers: picking a free port, and telling whether something listens on one.
 *
 * <p>Picked ports lie below the kernel's ephemeral range on purpose. A server killed and started again
 * listens on the port it had, and a port from the ephemeral range may meanwhile have become the local
 * end of some outgoing connection (a JDBC or JGroups client socket): the restart then fails with
 * "address in use". Ports below the range are never handed to outgoing connections.
 */
public final class FreePort {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 10_000;
    private static final int ATTEMPTS = 200;

    private FreePort() {}

    /**
     * A port free on every local address right now, outside the ephemeral range (another process may
     * still take it: callers retry).
     */
    public static int pick() {
        int[] range = ephemeralRange();
        int low = LOWEST;
        int high = range[0] - 1;
        if (high - low < 1_000) {
            // The ephemeral range starts low: take ports above it instead.
            low = range[1] + 1;
            high = 65_535;
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(low, high + 1);
            if (bindable(port)) {
                return port;
            }
        }
        throw new UncheckedIOException(
                new IOException("no free port between " + low + " and " + high + " after " + ATTEMPTS + " tries"));
    }

    /** True when a TCP connection to 127.0.0.1:port is accepted. */
    public static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean bindable(int port) {
        // The wildcard address: a server bound to it or to 127.0.0.1 both make this fail.
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Linux's ephemeral range, or its default where /proc does not say. */
    private static int[] ephemeralRange() {
        try {
            java.util.Scanner bounds = new java.util.Scanner(Files.readString(EPHEMERAL_RANGE));
            return new int[] {bounds.nextInt(), bounds.nextInt()};
        } catch (IOException | RuntimeException e) {
            return new int[] {32_768, 60_999};
        }
    }
}
