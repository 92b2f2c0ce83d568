package org.raidb.controller.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.controller.session.ClientSession;
import org.raidb.controller.session.SessionRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts driver connections and gives each its own session thread. Blocking I/O with a thread per
 * session keeps a request's path on one stack, which is what makes it readable and debuggable; the
 * session counts this middleware serves make that affordable. The PostgreSQL front end listens the same way,
 * with its own kind of session ({@link SessionFactory}).
 */
public final class ClientListener implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClientListener.class);

    private final ServerSocket server;
    private final SessionFactory factory;
    private final String threadPrefix;
    private final AtomicLong sessionIds = new AtomicLong();
    /**
     * Every session's connection from its accept to the end of its clean-up, so that a stop can end them (closing
     * the socket ends a session) and wait for them.
     */
    private final Map<Socket, Thread> sessions = new ConcurrentHashMap<>();

    private final Thread acceptor;

    /** What serves one accepted connection on its own thread, until the client leaves or its socket is closed. */
    @FunctionalInterface
    public interface SessionFactory {
        Runnable session(Socket socket, long id);
    }

    /** The driver's port: each connection a {@link ClientSession}. */
    public ClientListener(String host, int port, SessionRegistry registry) throws IOException {
        this(host, port, "raidb", (s, id) -> new ClientSession(s, registry, id));
    }

    /** @param threadPrefix names the acceptor ({@code prefix-listener-port}) and session threads ({@code prefix-session-id}) */
    public ClientListener(String host, int port, String threadPrefix, SessionFactory factory) throws IOException {
        this.factory = factory;
        this.threadPrefix = threadPrefix;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(host, port), 256);
        this.acceptor = new Thread(this::acceptLoop, threadPrefix + "-listener-" + server.getLocalPort());
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                startSession(server.accept());
            } catch (IOException e) {
                if (!server.isClosed()) {
                    log.warn("accepting a client connection failed: {}", e.toString());
                }
            }
        }
    }

    /**
     * A thread for the new session. When none can be had (out of memory or of native threads), only this
     * client is turned away: the acceptor must outlive any flood of connections.
     */
    private void startSession(Socket s) {
        long id = sessionIds.incrementAndGet();
        try {
            Runnable session = factory.session(s, id);
            Thread t = new Thread(
                    () -> {
                        try {
                            session.run();
                        } finally {
                            sessions.remove(s);
                        }
                    },
                    threadPrefix + "-session-" + id);
            t.setDaemon(true);
            sessions.put(s, t);
            t.start();
        } catch (RuntimeException | Error e) {
            sessions.remove(s);
            log.warn(
                    "turned away the connection from {}: no thread for its session ({})",
                    s.getRemoteSocketAddress(),
                    e.toString());
            closeQuietly(s);
        }
    }

    /** Refuses new connections from now on; once this returns, no new session starts. */
    public void stopAccepting() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(5)); // accept() returns at once on a closed socket
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Ends every session: its connection is closed, so that it finishes the request it is running, if
     * any, and rolls back its open transaction. Waits until the sessions have done so, or the deadline
     * passes; returns how many were running, and how many still are.
     */
    public SessionsEnded endSessions(long deadlineNanos) throws InterruptedException {
        int running = sessions.size();
        sessions.keySet().forEach(ClientListener::closeQuietly);
        for (Thread t : sessions.values()) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedJoin(t, left);
        }
        return new SessionsEnded(running, sessions.size());
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /** Sessions a stop ended, and those still running at its deadline. */
    public record SessionsEnded(int closed, int stillRunning) {}

    @Override
    public void close() {
        stopAccepting();
        try {
            endSessions(System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
