package org.raidb.driver;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.raidb.driver.protocol.CancelFrame;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.FrameTooLargeException;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.TransactionFrame;

/**
 * A JDBC connection's conversation with the controllers: the link to the controller it talks to, and the
 * lock that keeps each request/response exchange whole when several threads share a JDBC Connection.
 *
 * <p>When the controller fails (the socket is closed, reset or at end of stream while a request is sent or
 * its answer awaited), a connection with failover on ({@link SessionMemory}) moves to another controller of
 * the URL, within the connect timeout: it logs in with the same credentials and client session id, gives
 * the new session the old one's settings, replays the open transaction ({@link TransactionJournal}) and sends
 * the request again; the caller sees its answer as if nothing had happened. What cannot be carried over is
 * an SQLException: 40001 when the transaction could not be replayed (the connection goes on, on the new
 * controller), 08006 for a result set whose cursor died, 08001 when no controller took the session over.
 * Without failover, or after a protocol violation or a socket timeout (a controller that is slow is not dead,
 * and what it runs may still apply), the failure is reported as before: 08006, the connection closed.
 */
final class ControllerChannel {
    /** Writes one request frame, from its begin to its last byte (a codec of driver.protocol). */
    @FunctionalInterface
    interface Request {
        void write(PayloadWriter w);
    }

    /**
     * A request that may write, with its request id: after a failover inside a transaction, the new controller
     * is first asked for the outcome it remembers of it ({@code outcomeQuery}), in case the failed controller
     * had committed it before failing.
     */
    record Tagged(Request request, Request outcomeQuery) implements Request {
        @Override
        public void write(PayloadWriter w) {
            request.write(w);
        }
    }

    /** Parses the answer while the lock is held: the reader's buffer is reused by the next frame. */
    @FunctionalInterface
    interface Response<T> {
        T read(PayloadReader r) throws ProtocolException, SQLException;
    }

    /** What becomes of the request in flight when its controller failed and another took the session over. */
    enum InFlight {
        /** Sent again to the new controller (with its request id, so that nothing runs twice). */
        SEND_AGAIN,
        /** A FETCH: the cursor died with its controller, the caller gets 08006. */
        CURSOR_LOST,
        /** A CLOSE_CURSOR: the cursor died with its controller, which is all the request asked for. */
        NOTHING_LEFT
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final ConnectionSettings settings;
    /** Null when failover is off. */
    private final SessionMemory memory;

    private volatile ControllerLink link;
    private volatile boolean closed;
    /** How many times the connection moved to another controller: cursors of an earlier link are gone. */
    private final AtomicInteger failovers = new AtomicInteger();
    /** The socket timeout set through the connection (setNetworkTimeout), for the links that follow; -1: none. */
    private volatile int soTimeoutMillis = -1;

    private ControllerChannel(ConnectionSettings settings, SessionMemory memory, ControllerLink link) {
        this.settings = settings;
        this.memory = memory;
        this.link = link;
    }

    /** Connects to the first controller of the URL that answers. */
    static ControllerChannel connect(ConnectionSettings settings, SessionMemory memory) throws SQLException {
        ControllerLink first = ControllerConnector.connect(settings, memory == null ? null : memory.clientSessionId());
        return new ControllerChannel(settings, memory, first);
    }

    HostAndPort controller() {
        return link.controller();
    }

    ServerInfo serverInfo() {
        return link.serverInfo();
    }

    boolean isClosed() {
        return closed;
    }

    /** Changes whenever the connection moves to another controller; a result set's cursor lives on one. */
    int failovers() {
        return failovers.get();
    }

    /** Sends one request and parses its answer under the connection lock; an ERROR answer is thrown. */
    <T> T call(Request request, Response<T> response) throws SQLException {
        return call(request, response, InFlight.SEND_AGAIN);
    }

    /** As {@link #call(Request, Response)}, saying what becomes of the request if its controller fails. */
    <T> T call(Request request, Response<T> response, InFlight inFlight) throws SQLException {
        lock.lock();
        try {
            checkOpen();
            ControllerLink current = link;
            try {
                return exchange(current, request, response);
            } catch (FrameTooLargeException e) {
                throw tooLarge(e);
            } catch (SocketTimeoutException | ProtocolException e) {
                throw broken(current, e);
            } catch (IOException e) {
                if (memory == null || closed) { // closed: Connection.abort closed the socket under us
                    throw broken(current, e);
                }
                return failOver(current, e, request, response, inFlight);
            }
        } finally {
            lock.unlock();
        }
    }

    /** A request whose answer is OK. */
    void callOk(Request request) throws SQLException {
        call(request, ControllerChannel::ok);
    }

    private static Void ok(PayloadReader r) throws ProtocolException {
        expect(r, Protocol.OK);
        return null;
    }

    /** One request and its answer on {@code l}; an ERROR answer is thrown (a protocol violation closes all). */
    private <T> T exchange(ControllerLink l, Request request, Response<T> response) throws IOException, SQLException {
        l.send(request);
        PayloadReader r = l.next();
        if (r.type() == Protocol.ERROR) {
            SQLException e = ErrorFrame.read(r);
            if (SqlStates.PROTOCOL_VIOLATION.equals(e.getSQLState())) {
                closed = true;
                l.closeSocket(); // the controller closes the connection after a protocol violation
            }
            throw e;
        }
        return response.read(r);
    }

    /**
     * Moves the session to another controller and gives the caller the answer to its request, or the
     * SQLException that says what could not be carried over. Every controller that fails on the way is
     * tried last again; all of it within the connect timeout.
     */
    private <T> T failOver(
            ControllerLink dead, IOException cause, Request request, Response<T> response, InFlight inFlight)
            throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(settings.connectTimeoutSeconds());
        Set<HostAndPort> tried = new LinkedHashSet<>();
        List<String> failures = new ArrayList<>();
        HostAndPort failedFirst = dead.controller();
        ControllerLink lost = dead;
        IOException why = cause;
        while (true) {
            lost.closeSocket();
            failures.add(lost.controller() + ": failed (" + ControllerConnector.describe(why, settings) + ")");
            failovers.incrementAndGet();
            ControllerLink fresh;
            try {
                fresh = ControllerConnector.reconnect(
                        settings, memory.clientSessionId(), failedFirst, tried, failures, deadline);
            } catch (SQLException noneLeft) {
                closed = true;
                memory.transactionEnded(false);
                throw noneLeft;
            }
            link = fresh;
            try {
                if (soTimeoutMillis >= 0) {
                    fresh.setSoTimeout(soTimeoutMillis);
                }
                return resume(fresh, failedFirst, request, response, inFlight);
            } catch (IOException again) {
                lost = fresh;
                why = again;
            }
        }
    }

    /** On the new controller: the session's settings, its transaction, then the request in flight. */
    private <T> T resume(
            ControllerLink fresh, HostAndPort failed, Request request, Response<T> response, InFlight inFlight)
            throws IOException, SQLException {
        for (Request restore : memory.restoreRequests()) {
            try {
                exchange(fresh, restore, ControllerChannel::any);
            } catch (SQLException e) {
                closed = true;
                fresh.close();
                throw SqlStates.exception(
                        "Controller " + failed + " failed and controller " + fresh.controller()
                                + " could not take the session over: it refused its settings (" + e.getSQLState()
                                + " " + e.getMessage() + "); the connection is closed: open a new one",
                        SqlStates.CONNECTION_FAILURE,
                        0);
            }
        }
        if (memory.inTransaction()) {
            if (request instanceof Tagged tagged && fresh.serverInfo().remembersOutcomes()) {
                try {
                    return exchange(fresh, tagged.outcomeQuery(), response); // the failed controller had ended it
                } catch (SQLException e) {
                    if (!SqlStates.NO_DATA.equals(e.getSQLState())) {
                        throw e;
                    }
                }
            }
            String lostBecause = memory.journal().resultStillRead();
            if (lostBecause != null) {
                lostBecause = "its result set of " + lostBecause + " was still being read";
            } else {
                lostBecause = memory.journal().replay(new TransactionJournal.Wire() {
                    @Override
                    public <U> U call(Request r, Response<U> answer) throws IOException, SQLException {
                        return exchange(fresh, r, answer);
                    }
                });
            }
            if (lostBecause != null) {
                throw transactionLost(fresh, failed, lostBecause);
            }
        }
        return switch (inFlight) {
            case SEND_AGAIN -> exchange(fresh, request, response);
            case NOTHING_LEFT -> null;
            case CURSOR_LOST ->
                throw SqlStates.exception(
                        "The result set's cursor was lost when controller " + failed
                                + " failed; the connection goes on with controller " + fresh.controller()
                                + ": run the query again",
                        SqlStates.CONNECTION_FAILURE,
                        0);
        };
    }

    private static Object any(PayloadReader r) {
        return r;
    }

    /** Rolls back what the replay did on the new controller and says the transaction is lost: 40001. */
    private SQLException transactionLost(ControllerLink fresh, HostAndPort failed, String why) throws IOException {
        try {
            exchange(fresh, TransactionFrame.rollback()::write, ControllerChannel::ok);
        } catch (SQLException e) {
            // the transaction is over on the new controller either way
        }
        memory.transactionEnded(false);
        return SqlStates.exception(
                "The transaction was lost when controller " + failed
                        + " failed and could not be replayed on controller " + fresh.controller() + ": " + why
                        + "; it is rolled back and the connection goes on: retry the transaction",
                SqlStates.SERIALIZATION_FAILURE,
                0);
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
                "The request is larger than controller " + link.controller() + " accepts ("
                        + e.maxFrameBytes()
                        + " bytes per frame, its maxFrameBytes); nothing was sent and the connection is still usable: "
                        + "send smaller statements, batches or parameter values, or raise maxFrameBytes in the controller's configuration.",
                SqlStates.PROGRAM_LIMIT_EXCEEDED,
                0);
        sql.initCause(e);
        return sql;
    }

    private SQLException broken(ControllerLink l, IOException e) {
        closed = true;
        l.closeSocket();
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
                "An I/O error occurred while talking to controller " + l.controller() + " (" + why
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
        ControllerLink l = link;
        ServerInfo info = l.serverInfo();
        if (closed || info == null) {
            return;
        }
        HostAndPort controller = l.controller();
        int connectTimeoutMillis = ControllerConnector.connectTimeoutMillis(settings);
        try (Socket s = ControllerSockets.connect(controller, settings, connectTimeoutMillis)) {
            s.setSoTimeout(connectTimeoutMillis);
            PayloadWriter w = new PayloadWriter(); // not the link's writer: another thread may be using it
            new CancelFrame(info.sessionId(), info.cancelSecret()).write(w);
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
        ControllerLink l = link;
        try {
            l.setSoTimeout(millis);
            soTimeoutMillis = millis;
        } catch (IOException e) {
            throw broken(l, e);
        }
    }

    int getSoTimeout() throws SQLException {
        ControllerLink l = link;
        try {
            return l.getSoTimeout();
        } catch (IOException e) {
            throw broken(l, e);
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
            closed = true;
            link.close();
        } finally {
            lock.unlock();
        }
    }

    /** Closes the socket without the lock, for Connection.abort: a thread blocked in a call fails at once. */
    void abort() {
        closed = true;
        link.closeSocket();
    }

    /** Makes every later call fail with 08003, before {@link #abort} has closed the socket. */
    void markClosed() {
        closed = true;
    }
}
