package org.raidb.controller.session;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * The socket's input with one deadline for the whole handshake: a socket timeout bounds each read, so a
 * client sending one byte a second would keep a session thread forever; here each read may only wait
 * for what is left of the time the connection has to complete its first frame. {@link #end} lifts the
 * deadline once the client has logged in.
 */
final class HandshakeDeadline extends FilterInputStream {
    private final Socket socket;
    private final Duration timeout;
    private final long deadline;
    private boolean ended;

    HandshakeDeadline(Socket socket, InputStream in, Duration timeout) {
        super(in);
        this.socket = socket;
        this.timeout = timeout;
        this.deadline = System.nanoTime() + timeout.toNanos();
    }

    /** From now on reads wait as long as the client needs (an idle logged-in session is fine). */
    void end() throws IOException {
        ended = true;
        socket.setSoTimeout(0);
    }

    @Override
    public int read() throws IOException {
        bound();
        try {
            return super.read();
        } catch (SocketTimeoutException e) {
            throw timedOut();
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        bound();
        try {
            return super.read(b, off, len);
        } catch (SocketTimeoutException e) {
            throw timedOut();
        }
    }

    private void bound() throws IOException {
        if (ended) {
            return;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw timedOut();
        }
        socket.setSoTimeout((int)
                Math.max(1, Math.min(Integer.MAX_VALUE, Duration.ofNanos(left).toMillis())));
    }

    /** The exception a read times out with, saying which limit it hit. */
    private SocketTimeoutException timedOut() {
        return new SocketTimeoutException(
                "handshake not completed within " + timeout.toMillis() + " ms (handshakeTimeout)");
    }
}
