package org.raidb.driver;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.raidb.driver.protocol.CloseFrame;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.FrameReader;
import org.raidb.driver.protocol.HelloFrame;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;

/**
 * One TCP connection to one controller, logged in: the socket and the frame codec. A {@link ControllerChannel}
 * uses one at a time and replaces it by a link to another controller when the controller fails. Not
 * thread-safe: the channel's lock guards it.
 */
final class ControllerLink {
    private final HostAndPort controller;
    private final Socket socket;
    private final OutputStream out;
    private final FrameReader frames;
    private final PayloadWriter writer = new PayloadWriter();
    private ServerInfo serverInfo;

    private ControllerLink(HostAndPort controller, Socket socket, int maxFrameBytes) throws IOException {
        this.controller = controller;
        this.socket = socket;
        this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        this.frames = new FrameReader(new BufferedInputStream(socket.getInputStream(), 8192), maxFrameBytes);
    }

    /**
     * Connects and logs in within {@code timeoutMillis} (0: no limit to connect, and the socket timeout
     * bounds the handshake). An I/O failure is an IOException (the caller tries the next controller); an
     * ERROR answer is the SQLException it carries (wrong password, unknown virtual database).
     *
     * @param clientSessionId sent in HELLO, or null
     */
    static ControllerLink open(
            HostAndPort controller, ConnectionSettings settings, String clientSessionId, int timeoutMillis)
            throws IOException, SQLException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Socket socket = ControllerSockets.connect(controller, settings, timeoutMillis);
        try {
            // The handshake shares the connect timeout, so that a controller that accepts but never answers is also
            // skipped; without a connect timeout, the socket timeout bounds it as it bounds every other answer.
            if (timeoutMillis > 0) {
                socket.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } else {
                socket.setSoTimeout(socketTimeoutMillis(settings));
            }
            ControllerLink link = new ControllerLink(controller, socket, settings.maxFrameBytes());
            link.handshake(settings, clientSessionId);
            socket.setSoTimeout(socketTimeoutMillis(settings));
            return link;
        } catch (IOException | SQLException | RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    private static int socketTimeoutMillis(ConnectionSettings settings) {
        return (int) Math.min(Integer.MAX_VALUE, TimeUnit.SECONDS.toMillis(settings.socketTimeoutSeconds()));
    }

    private void handshake(ConnectionSettings settings, String clientSessionId) throws IOException, SQLException {
        new HelloFrame(
                        settings.virtualDatabase(),
                        settings.user(),
                        settings.password(),
                        settings.clientProperties(),
                        clientSessionId)
                .write(writer);
        writer.send(out);
        PayloadReader r = frames.next();
        if (r.type() == Protocol.ERROR) {
            throw ErrorFrame.read(r);
        }
        ControllerChannel.expect(r, Protocol.HELLO_OK);
        serverInfo = ServerInfo.read(r);
        writer.maxFrameBytes(serverInfo.maxRequestFrameBytes());
    }

    HostAndPort controller() {
        return controller;
    }

    ServerInfo serverInfo() {
        return serverInfo;
    }

    /** Writes one request frame; a frame larger than the controller accepts fails before any of it is sent. */
    void send(ControllerChannel.Request request) throws IOException {
        request.write(writer);
        writer.send(out);
    }

    /** The next frame from the controller; valid until the next call. */
    PayloadReader next() throws IOException {
        return frames.next();
    }

    void setSoTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    int getSoTimeout() throws IOException {
        return socket.getSoTimeout();
    }

    /** Ends the session politely (CLOSE, which the controller does not answer) and closes the socket. */
    void close() {
        try {
            CloseFrame.write(writer);
            writer.send(out);
        } catch (IOException e) {
            // the socket is going away anyway
        }
        closeSocket();
    }

    void closeSocket() {
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
