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
 * session counts this middleware serves make that affordable.
 */
public final class ClientListener implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClientListener.class);

    private final ServerSocket server;
    private final SessionRegistry registry;
    private final AtomicLong sessionIds = new AtomicLong();
    /** Every session from its connection to the end of its clean-up, so that a stop can wait for them. */
    private final Map<ClientSession, Thread> sessions = new ConcurrentHashMap<>();

    private final Thread acceptor;

    public ClientListener(String host, int port, SessionRegistry registry) throws IOException {
        this.registry = registry;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(host, port), 256);
        this.acceptor = new Thread(this::acceptLoop, "raidb-listener-" + server.getLocalPort());
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
        ClientSession session = new ClientSession(s, registry, id);
        try {
            Thread t = new Thread(
                    () -> {
                        try {
                            session.run();
                        } finally {
                            sessions.remove(session);
                        }
                    },
                    "raidb-session-" + id);
            t.setDaemon(true);
            sessions.put(session, t);
            t.start();
        } catch (RuntimeException | Error e) {
            sessions.remove(session);
            log.warn(
                    "turned away the connection from {}: no thread for its session ({})",
                    s.getRemoteSocketAddress(),
                    e.toString());
            try {
                s.close();
            } catch (IOException ignored) {
                // it is being dropped anyway
            }
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
        sessions.keySet().forEach(ClientSession::close);
        for (Thread t : sessions.values()) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedJoin(t, left);
        }
        return new SessionsEnded(running, sessions.size());
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
