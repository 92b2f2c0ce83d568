package org.raidb.controller.session;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/**
 * Closing a connection right after a last ERROR frame without losing the frame. Closing a socket with
 * unread input makes the kernel reset the connection, and a reset can destroy the frame before the
 * client reads it: so the output is shut first (the frame goes out ahead of the end of stream), then
 * what the client still sends is read and dropped, briefly and boundedly, so that a hostile client
 * cannot hold the thread: at most {@link #MILLIS} and {@link #BYTES}.
 */
final class LingeringClose {
    static final int MILLIS = 1_000;
    static final int BYTES = 64 * 1024;

    private LingeringClose() {}

    static void close(Socket socket) {
        try {
            if (!socket.isClosed()) {
                socket.shutdownOutput();
                drain(socket);
            }
        } catch (IOException ignored) {
            // the client is gone: nothing left to wait for
        } finally {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closed anyway
            }
        }
    }

    private static void drain(Socket socket) throws IOException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MILLIS);
        InputStream raw = socket.getInputStream();
        byte[] dropped = new byte[4096];
        int total = 0;
        while (total < BYTES) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (left <= 0) {
                return;
            }
            socket.setSoTimeout((int) left);
            int n = raw.read(dropped);
            if (n < 0) {
                return;
            }
            total += n;
        }
    }
}
