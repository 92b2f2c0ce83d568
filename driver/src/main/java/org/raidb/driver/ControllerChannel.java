package org.raidb.driver;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.raidb.driver.protocol.CancelFrame;
import org.raidb.driver.protocol.CloseFrame;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.FrameReader;
import org.raidb.driver.protocol.FrameTooLargeException;
import org.raidb.driver.protocol.HelloFrame;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.SqlStates;

/**
 * The TCP connection to one controller: the socket, the frame codec, and the lock that keeps each
 * request/response exchange whole when several threads share a JDBC Connection.
 *
 * <p>Any I/O failure leaves the stream in an unknown position in a frame, so the channel is closed
 * at once and the failure reported as 08006; the caller cannot reuse it.
 */
final class ControllerChannel {
    /** Writes one request frame, from its begin to its last byte (a codec of driver.protocol). */
    @FunctionalInterface
    interface Request {
        void write(PayloadWriter w);
    }

    /** Parses the answer while the lock is held: the reader's buffer is reused by the next frame. */
    @FunctionalInterface
    interface Response<T> {
        T read(PayloadReader r) throws ProtocolException, SQLException;
    }

    private final HostAndPort controller;
    private final Socket socket;
    private final OutputStream out;
    private final FrameReader frames;
    private final PayloadWriter writer = new PayloadWriter();
    private final ReentrantLock lock = new ReentrantLock();
    private final int connectTimeoutMillis;
    private volatile boolean closed;
    private ServerInfo serverInfo;

    private ControllerChannel(HostAndPort controller, Socket socket, int maxFrameBytes, int connectTimeoutMillis)
            throws IOException {
        this.controller = controller;
        this.socket = socket;
        this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        this.frames = new FrameReader(new BufferedInputStream(socket.getInputStream(), 8192), maxFrameBytes);
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    /**
     * Connects and runs the handshake. An I/O failure is an IOException (the caller tries the next
     * controller); an ERROR answer is the SQLException it carries (wrong password, unknown virtual
     * database), which no other controller would answer differently.
     */
    static ControllerChannel open(HostAndPort controller, ConnectionSettings settings)
            throws IOException, SQLException {
        int timeoutMillis =
                (int) Math.min(Integer.MAX_VALUE, TimeUnit.SECONDS.toMillis(settings.connectTimeoutSeconds()));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(new InetSocketAddress(controller.host(), controller.port()), timeoutMillis);
            // The handshake shares the connect timeout, so that a controller that accepts but never answers is also
            // skipped; without a connect timeout, the socket timeout bounds it as it bounds every other answer.
            if (timeoutMillis > 0) {
                socket.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } else {
                socket.setSoTimeout(socketTimeoutMillis(settings));
            }
            ControllerChannel channel =
                    new ControllerChannel(controller, socket, settings.maxFrameBytes(), timeoutMillis);
            channel.handshake(settings);
            socket.setSoTimeout(socketTimeoutMillis(settings));
            return channel;
        } catch (IOException | SQLException | RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    private static int socketTimeoutMillis(ConnectionSettings settings) {
        return (int) Math.min(Integer.MAX_VALUE, TimeUnit.SECONDS.toMillis(settings.socketTimeoutSeconds()));
    }

    private void handshake(ConnectionSettings settings) throws IOException, SQLException {
        new HelloFrame(settings.virtualDatabase(), settings.user(), settings.password(), settings.clientProperties())
                .write(writer);
        writer.send(out);
        PayloadReader r = frames.next();
        if (r.type() == Protocol.ERROR) {
            throw ErrorFrame.read(r);
        }
        expect(r, Protocol.HELLO_OK);
        serverInfo = ServerInfo.read(r);
        writer.maxFrameBytes(serverInfo.maxRequestFrameBytes());
    }

    HostAndPort controller() {
        return controller;
    }

    ServerInfo serverInfo() {
        return serverInfo;
    }

    boolean isClosed() {
        return closed;
    }

    /** Sends one request and parses its answer under the connection lock; an ERROR answer is thrown. */
    <T> T call(Request request, Response<T> response) throws SQLException {
        lock.lock();
        try {
            checkOpen();
            try {
                send(request);
                PayloadReader r = frames.next();
                if (r.type() == Protocol.ERROR) {
                    SQLException e = ErrorFrame.read(r);
                    if (SqlStates.PROTOCOL_VIOLATION.equals(e.getSQLState())) {
                        closeSocket(); // the controller closes the connection after a protocol violation
                    }
                    throw e;
                }
                return response.read(r);
            } catch (FrameTooLargeException e) {
                throw tooLarge(e);
            } catch (IOException e) {
                throw broken(e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** A request whose answer is OK. */
    void callOk(Request request) throws SQLException {
        call(request, r -> {
            expect(r, Protocol.OK);
            return null;
        });
    }

    private void send(Request request) throws IOException {
        request.write(writer);
        writer.send(out);
    }

    /** Throws unless the frame is of the expected type. */
    static void expect(PayloadReader r, byte type) throws ProtocolException {
        if (r.type() != type) {
            throw new ProtocolException(
                    "expected a '" + (char) type + "' frame from the controller but got '" + (char) r.type() + "'");
        }
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw SqlStates.exception("This connection has been closed.", SqlStates.CONNECTION_DOES_NOT_EXIST, 0);
        }
    }

    /** A request the controller would refuse unread: refused here before any of it is sent, so the connection stays usable. */
    private SQLException tooLarge(FrameTooLargeException e) {
        SQLException sql = SqlStates.exception(
                "The request is larger than controller " + controller + " accepts ("
                        + e.maxFrameBytes()
                        + " bytes per frame, its maxFrameBytes); nothing was sent and the connection is still usable: "
                        + "send smaller statements, batches or parameter values, or raise maxFrameBytes in the controller's configuration.",
                SqlStates.PROGRAM_LIMIT_EXCEEDED,
                0);
        sql.initCause(e);
        return sql;
    }

    private SQLException broken(IOException e) {
        closeSocket();
        String why;
        String state = SqlStates.CONNECTION_FAILURE;
        if (e instanceof SocketTimeoutException) {
            why = "no answer within the socket timeout";
        } else if (e instanceof ProtocolException) {
            why = "protocol violation: " + e.getMessage();
            state = SqlStates.PROTOCOL_VIOLATION;
        } else {
            why = e.toString();
        }
        SQLException sql = SqlStates.exception(
                "An I/O error occurred while talking to controller " + controller + " (" + why
                        + "); the connection is closed.",
                state,
                0);
        sql.initCause(e);
        return sql;
    }

    /**
     * Asks the controller to cancel what this session is running, on a new socket: the connection's
     * own socket is busy waiting for the answer of the statement to cancel, and its lock is held.
     */
    void cancel() throws SQLException {
        if (closed || serverInfo == null) {
            return;
        }
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(controller.host(), controller.port()), connectTimeoutMillis);
            s.setSoTimeout(connectTimeoutMillis);
            PayloadWriter w = new PayloadWriter(); // not the shared writer: another thread may be using it
            new CancelFrame(serverInfo.sessionId(), serverInfo.cancelSecret()).write(w);
            w.send(s.getOutputStream());
            // Wait for the controller to close the socket, so that the cancel has been handled when we return.
            InputStream in = s.getInputStream();
            while (in.read() >= 0) {
                // the controller sends nothing; just drain until it closes
            }
        } catch (SocketTimeoutException e) {
            // The cancel was sent; the controller is slow to hang up, which is no reason to fail.
        } catch (IOException e) {
            SQLException sql = SqlStates.exception(
                    "Could not send the cancel request to controller " + controller + ": " + e,
                    SqlStates.CONNECTION_FAILURE,
                    0);
            sql.initCause(e);
            throw sql;
        }
    }

    void setSoTimeout(int millis) throws SQLException {
        try {
            socket.setSoTimeout(millis);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    int getSoTimeout() throws SQLException {
        try {
            return socket.getSoTimeout();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    /** Ends the session politely (CLOSE, which the controller does not answer) and closes the socket. Idempotent. */
    void close() {
        if (closed) {
            return;
        }
        lock.lock();
        try {
            if (closed) {
                return;
            }
            try {
                CloseFrame.write(writer);
                writer.send(out);
            } catch (IOException e) {
                // the socket is going away anyway
            }
            closeSocket();
        } finally {
            lock.unlock();
        }
    }

    /** Closes the socket without the lock, for Connection.abort: a thread blocked in a call fails at once. */
    void abort() {
        closeSocket();
    }

    /** Makes every later call fail with 08003, before {@link #abort} has closed the socket. */
    void markClosed() {
        closed = true;
    }

    private void closeSocket() {
        closed = true;
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing left to do with it
        }
    }
}
