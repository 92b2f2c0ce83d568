package org.raidb.controller.session;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.ProductInfo;
import org.raidb.controller.group.ReplicationProtocol;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.MetadataCall;
import org.raidb.controller.request.StatementDescriber;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.result.Result;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.result.Rows;
import org.raidb.controller.result.RowsetFrames;
import org.raidb.controller.result.UpdateCount;
import org.raidb.controller.session.ClientErrorLog.Kind;
import org.raidb.controller.tls.TlsAcceptor;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.tree.ControllerCycleException;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.BatchFrame;
import org.raidb.driver.protocol.BatchResultFrame;
import org.raidb.driver.protocol.ClientInfoFrame;
import org.raidb.driver.protocol.CloseCursorFrame;
import org.raidb.driver.protocol.DescribeFrame;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.ExecuteFrame;
import org.raidb.driver.protocol.FetchFrame;
import org.raidb.driver.protocol.FrameReader;
import org.raidb.driver.protocol.HelloOkFrame;
import org.raidb.driver.protocol.InvalidValueException;
import org.raidb.driver.protocol.MetadataFrame;
import org.raidb.driver.protocol.OkFrame;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.PingFrame;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.RequestTag;
import org.raidb.driver.protocol.ResultsFrame;
import org.raidb.driver.protocol.RowsFrame;
import org.raidb.driver.protocol.RowsetCodec;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.driver.protocol.TransactionFrame;
import org.raidb.driver.protocol.TypedText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One driver connection: authenticates once, then reads one request frame at a time, hands it to its
 * virtual database and writes the answer. Any error a request causes is sent to the client as an
 * ERROR frame and the session goes on; only a protocol violation ends it, after its ERROR frame.
 * Whatever ends a session (even an Error such as OutOfMemoryError) ends only that one: its transaction
 * is rolled back, its cursors closed and its socket closed.
 */
public final class ClientSession implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(ClientSession.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Socket socket;
    private final SessionRegistry registry;
    private final long id;
    private final InetAddress source;
    private final long cancelSecret = RANDOM.nextLong();
    private final PayloadWriter out = new PayloadWriter();
    private final Map<Long, RowSource> cursors = new HashMap<>();
    /** The statements the client prepared with SQL's PREPARE. */
    private final SqlPreparedStatements sqlPrepared = new SqlPreparedStatements();

    private long nextCursorId = 1;
    private OutputStream output;
    private VirtualDatabase vdb;
    /** Where the session's requests go: its virtual database's protocol (a controller group, or this controller). */
    private ReplicationProtocol requests;

    private SessionState state;
    private RecentOutcomes outcomes;

    public ClientSession(Socket socket, SessionRegistry registry, long id) {
        this.socket = socket;
        this.registry = registry;
        this.id = id;
        this.source = socket.getInetAddress();
    }

    @Override
    public void run() {
        boolean lastAnswerWasAnError = false;
        try {
            lastAnswerWasAnError = !serveConnection();
        } catch (ProtocolException e) {
            report(Kind.PROTOCOL_VIOLATION, e.getMessage());
            lastAnswerWasAnError = sendQuietly(new SQLException(
                    "protocol violation: " + e.getMessage()
                            + "; the connection is closed: is this a RAIDb driver of a matching version?",
                    SqlStates.PROTOCOL_VIOLATION));
        } catch (SocketTimeoutException e) {
            // Reads time out only during the handshake: a logged-in session may stay idle.
            report(Kind.HANDSHAKE_TIMEOUT, e.getMessage());
            lastAnswerWasAnError = sendQuietly(new SQLException(
                    e.getMessage() + "; the connection is closed: a client must "
                            + "send its whole first frame as soon as it has connected",
                    SqlStates.PROTOCOL_VIOLATION));
        } catch (EOFException | SocketException e) {
            log.debug("session {} ended: {}", id, e.getMessage());
        } catch (IOException e) {
            report(Kind.IO_ERROR, e.toString());
        } catch (RuntimeException e) {
            log.error("internal error in session {} before it could serve requests", id, e);
            lastAnswerWasAnError = sendQuietly(new SQLException(
                    "internal controller error: " + e + "; the connection is closed, please report this",
                    SqlStates.INTERNAL_ERROR));
        } catch (Error e) {
            // Most likely out of memory: this session's buffers and results are dropped with it, and the
            // other sessions, which may be fine, go on. No stack trace: it would say where memory ran out,
            // not who took it.
            log.error(
                    "session {} from {} ended by {}; its transaction is rolled back and its connection closed",
                    id,
                    address(),
                    e.toString());
            lastAnswerWasAnError = sendQuietly(new SQLException(
                    "the controller could not serve this session (" + e
                            + "); the connection is closed: send smaller requests",
                    SqlStates.OUT_OF_MEMORY));
        } finally {
            try {
                cleanUp();
            } finally {
                if (lastAnswerWasAnError) {
                    LingeringClose.close(socket);
                } else {
                    close();
                }
            }
        }
    }

    /** Serves the connection until the client leaves; false when it was refused at login (with an ERROR frame). */
    private boolean serveConnection() throws IOException {
        socket.setTcpNoDelay(true);
        Socket wire = socket;
        java.io.InputStream input = socket.getInputStream();
        TlsAcceptor tls = registry.tls();
        if (tls != null) {
            // The TLS handshake's reads are bounded as the first frame's are (each read, not their total).
            socket.setSoTimeout((int)
                    Math.min(Integer.MAX_VALUE, registry.handshakeTimeout().toMillis()));
            try {
                TlsAcceptor.Accepted accepted = tls.accept(socket);
                wire = accepted.socket();
                input = accepted.in();
            } catch (TlsAcceptor.PlainClientRefused e) {
                report(Kind.PLAIN_REFUSED, e.getMessage());
                output = new BufferedOutputStream(socket.getOutputStream(), 16384);
                send(new SQLException(e.getMessage(), SqlStates.CONNECTION_REJECTED));
                return false;
            }
        }
        HandshakeDeadline deadline = new HandshakeDeadline(wire, input, registry.handshakeTimeout());
        // Until login, frames are small: nobody unauthenticated makes the controller read or buffer much.
        FrameReader in = new FrameReader(new BufferedInputStream(deadline, 16384), registry.preLoginMaxFrameBytes());
        output = new BufferedOutputStream(wire.getOutputStream(), 16384);
        PayloadReader first = in.next();
        if (first.type() == Protocol.CANCEL) {
            registry.cancel(first);
            return true;
        }
        if (!logIn(first)) {
            return false;
        }
        deadline.end();
        in.maxFrameBytes(registry.maxFrameBytes());
        while (serve(in.next())) {
            // one request, one answer
        }
        return true;
    }

    private boolean logIn(PayloadReader hello) throws IOException {
        ProductInfo product;
        try {
            Login login = Login.check(hello, registry, source);
            vdb = login.vdb();
            requests = registry.protocol(vdb);
            state = new SessionState(id, login.user(), vdb.transactionIds());
            state.applicationName(login.applicationName());
            state.clientSessionId(login.clientSessionId());
            outcomes = registry.recentOutcomes(vdb.name());
            product = vdb.productInfo();
        } catch (SQLException e) {
            report(
                    SqlStates.CONNECTION_REJECTED.equals(e.getSQLState()) && !(e instanceof ControllerCycleException)
                            ? Kind.LOGIN_THROTTLED
                            : Kind.LOGIN_REFUSED,
                    e.getMessage());
            send(e);
            return false;
        }
        registry.register(id, this);
        new HelloOkFrame(
                        Protocol.VERSION,
                        id,
                        cancelSecret,
                        product == null ? "PostgreSQL" : product.name(),
                        product == null ? "" : product.version(),
                        product == null ? 0 : product.majorVersion(),
                        product == null ? 0 : product.minorVersion(),
                        product == null ? "\"" : product.identifierQuote(),
                        // maxFrameBytes lets the driver refuse a request that is too large before sending it.
                        Map.of(
                                "controller",
                                "RAIDb " + registry.version(),
                                "virtualDatabase",
                                vdb.name(),
                                "maxFrameBytes",
                                String.valueOf(registry.maxFrameBytes()),
                                Protocol.REMEMBERS_OUTCOMES,
                                "1"))
                .write(out);
        out.send(output);
        log.debug("session {} opened on {} by {}", id, vdb.name(), state.virtualUser());
        return true;
    }

    /** Serves one request; returns false when the client closed the session. */
    private boolean serve(PayloadReader f) throws IOException {
        try {
            switch (f.type()) {
                case Protocol.EXECUTE -> execute(f);
                case Protocol.FETCH -> fetch(f);
                case Protocol.CLOSE_CURSOR -> {
                    closeCursor(CloseCursorFrame.read(f).cursorId());
                    ok();
                }
                case Protocol.BATCH -> batch(f);
                case Protocol.TRANSACTION -> transaction(f);
                case Protocol.METADATA -> metadata(f);
                case Protocol.PING -> {
                    PingFrame.read(f); // the socket's own timeout bounds the answer: nothing to do but answer
                    ok();
                }
                case Protocol.DESCRIBE -> describe(f);
                case Protocol.CLIENT_INFO -> {
                    clientInfo(f);
                    ok();
                }
                case Protocol.CLOSE -> {
                    return false;
                }
                default -> throw new ProtocolException("unknown frame type " + (f.type() & 0xff));
            }
        } catch (InvalidValueException e) {
            report(Kind.INVALID_VALUE, e.getMessage());
            send(new SQLException(e.getMessage() + "; the session is still usable", e.sqlState()));
        } catch (SQLException e) {
            send(e);
        } catch (RuntimeException e) {
            log.error("internal error in session {}", id, e);
            send(new SQLException(
                    "internal controller error: " + e + "; the session is still usable, please report this",
                    SqlStates.INTERNAL_ERROR));
        }
        return true;
    }

    private void execute(PayloadReader f) throws IOException, SQLException {
        ExecuteFrame e = ExecuteFrame.read(f);
        ClientText.statement(e.sql());
        ClientText.columnNames(e.keyColumns(), "the list of generated key columns");
        Optional<RequestOutcome> again = remembered(e.tag());
        if (again.isPresent()) {
            answer(
                    again.get(),
                    () -> new ResultsFrame(again.get().results(), again.get().generatedKeys(), null).write(out));
            return;
        }
        String sql = e.sql();
        if (SqlPreparedStatements.isPrepare(sql) || SqlPreparedStatements.isDeallocate(sql)) {
            sqlPrepared(sql);
            writeResults(new StatementResult(List.of(new UpdateCount(0)), null), e.effectiveFetchSize());
            return;
        }
        if (SqlPreparedStatements.isExecute(sql)) {
            sql = sqlPrepared.expand(
                    sql, e.parameters() != null && !e.parameters().isEmpty());
        }
        ExecuteRequest r = new ExecuteRequest(
                sql,
                e.parameters(),
                e.mode(),
                e.returnGeneratedKeys(),
                e.keyColumns(),
                e.effectiveFetchSize(),
                e.maxRows(),
                e.queryTimeoutSeconds(),
                e.call(),
                e.escapeProcessing());
        StatementResult result = runRemembered(
                e.tag(),
                () -> requests.execute(state, r),
                // The rows of a read are not kept: sent again, it is read again, and they could be many.
                done -> RequestOutcome.of(done)
                        .filter(o -> !o.holdsRows()
                                || vdb.analyzer().analyze(r.sql()).kind() != StatementKind.READ));
        writeResults(result, r.fetchSize());
    }

    /** A PREPARE or DEALLOCATE of the session's SQL-level statements: kept here, never on a backend connection. */
    private void sqlPrepared(String sql) throws SQLException {
        if (SqlPreparedStatements.isPrepare(sql)) {
            sqlPrepared.prepare(sql);
        } else if (!sqlPrepared.deallocate(sql)) {
            throw new SQLException(
                    "prepared statement \"" + SqlPreparedStatements.deallocatedName(sql) + "\" does not exist",
                    SqlStates.INVALID_SQL_STATEMENT_NAME);
        }
    }

    /** The TRANSACTION frame: answered OK, or the outcome remembered from an earlier sending. */
    private void transaction(PayloadReader f) throws IOException, SQLException {
        TransactionFrame t = TransactionFrame.read(f);
        Optional<RequestOutcome> again = remembered(t.tag());
        if (again.isPresent()) {
            answer(again.get(), () -> OkFrame.write(out));
            return;
        }
        runRemembered(
                t.tag(),
                () -> {
                    new TransactionFrames(requests, state).handle(t);
                    return null;
                },
                done -> Optional.of(RequestOutcome.ok()));
        ok();
    }

    /**
     * The outcome remembered for a request sent again (its controller failed before answering), if this
     * controller ran it or was told of it; empty when it must run. Also makes the request's id the session's
     * current one, for whatever runs it. An outcome-only query without a remembered outcome is refused
     * ({@link SqlStates#NO_DATA}) and nothing runs.
     */
    private Optional<RequestOutcome> remembered(RequestTag tag) throws SQLException {
        state.requestId(tag.requestId());
        Optional<RequestOutcome> outcome = outcomes.lookup(state.clientSessionId(), tag.requestId());
        if (outcome.isEmpty() && tag.outcomeOnly()) {
            throw new SQLException(
                    "this controller remembers no outcome of request " + tag.requestId()
                            + " of this client session: it did not run here; run it (after replaying its transaction)",
                    SqlStates.NO_DATA);
        }
        if (outcome.isPresent()) {
            log.debug(
                    "session {}: request {} of client session {} sent again, answered with its remembered outcome",
                    id,
                    tag.requestId(),
                    state.clientSessionId());
        }
        return outcome;
    }

    /**
     * Runs a request and remembers its final outcome: {@code outcome} of what it returned, or its error. Nothing
     * is worked out for a request that will not be remembered (no id, or a transaction still open).
     */
    private <T> T runRemembered(RequestTag tag, Run<T> run, Function<T, Optional<RequestOutcome>> outcome)
            throws SQLException, ProtocolException {
        T result;
        try {
            result = run.run();
        } catch (SQLException failure) {
            if (remembers(tag) && !mayPassNextTime(failure.getSQLState())) {
                remember(tag, RequestOutcome.failed(failure));
            }
            throw failure;
        }
        if (remembers(tag)) {
            outcome.apply(result).ifPresent(o -> remember(tag, o));
        }
        return result;
    }

    @FunctionalInterface
    private interface Run<T> {
        T run() throws SQLException, ProtocolException;
    }

    /**
     * Whether what a request with this tag was just answered is to be remembered: it has an id, and the answer
     * is final, no transaction being open after it (an auto-commit statement, a commit or rollback).
     */
    private boolean remembers(RequestTag tag) {
        return tag.present() && state.clientSessionId() != null && state.betweenTransactions();
    }

    private void remember(RequestTag tag, RequestOutcome outcome) {
        outcomes.record(state.clientSessionId(), tag.requestId(), outcome);
        registry.answerHook().beforeAnswer(state.clientSessionId(), tag.requestId(), outcome);
    }

    /**
     * An error that another try may not meet (a connection, resource, operator or serialization failure) is
     * not remembered: sent again, the request runs again, which is what the client would do.
     */
    static boolean mayPassNextTime(String sqlState) {
        return sqlState == null
                || sqlState.startsWith("08")
                || sqlState.startsWith("40")
                || sqlState.startsWith("53")
                || sqlState.startsWith("57");
    }

    /** A remembered outcome sent as the request's answer: the success frame {@code success} writes, or its error. */
    private void answer(RequestOutcome outcome, SuccessFrame success) throws IOException, SQLException {
        if (!outcome.succeeded()) {
            send(outcome.failure());
            return;
        }
        success.write();
        out.send(output);
    }

    @FunctionalInterface
    private interface SuccessFrame {
        void write() throws SQLException;
    }

    /** A single result set is streamed fetchSize rows at a time; several results are sent whole. */
    private void writeResults(StatementResult result, int fetchSize) throws IOException, SQLException {
        List<Object> items = new ArrayList<>(result.results().size());
        int rowsetFetchSize = result.results().size() == 1 ? fetchSize : Integer.MAX_VALUE;
        for (Result item : result.results()) {
            items.add(item.<Object>map(
                    count -> count, rows -> (RowsetCodec.RowsetWriter) w -> writeRowset(w, rows, rowsetFetchSize)));
        }
        ResultsFrame.write(out, items, generatedKeys(result), result.warnings());
        out.send(output);
    }

    /** The generated keys, sent whole, or null when the client did not ask for them. */
    private RowsetCodec.RowsetWriter generatedKeys(StatementResult result) {
        RowSource keys = result.generatedKeys();
        return keys == null ? null : w -> writeRowset(w, keys, Integer.MAX_VALUE);
    }

    private void writeRowset(PayloadWriter w, RowSource rows, int fetchSize) throws SQLException {
        long cursorId = nextCursorId++;
        boolean last;
        try {
            last = RowsetFrames.writeRowset(w, cursorId, rows, fetchSize);
        } catch (SQLException | RuntimeException e) {
            rows.close();
            throw e;
        }
        if (last) {
            rows.close();
        } else {
            cursors.put(cursorId, rows);
        }
    }

    private void fetch(PayloadReader f) throws IOException, SQLException {
        FetchFrame fetch = FetchFrame.read(f);
        long cursorId = fetch.cursorId();
        RowSource rows = cursors.get(cursorId);
        if (rows == null) {
            throw new SQLException(
                    "cursor " + cursorId + " does not exist or is already closed", SqlStates.INVALID_CURSOR_STATE);
        }
        boolean last;
        try {
            last = RowsFrame.write(out, w -> rows.writeBatch(w, fetch.effectiveMaxRows(), RowsetFrames.BATCH_BYTES));
        } catch (SQLException | RuntimeException e) {
            closeCursor(cursorId);
            throw e;
        }
        if (last) {
            closeCursor(cursorId);
        }
        out.send(output);
    }

    private void closeCursor(long cursorId) {
        RowSource rows = cursors.remove(cursorId);
        if (rows != null) {
            rows.close();
        }
    }

    private void batch(PayloadReader f) throws IOException, SQLException {
        BatchFrame frame = BatchFrame.read(f);
        BatchRequest.of(frame); // every text checked before anything runs or is sent to a controller group
        Optional<RequestOutcome> again = remembered(frame.tag());
        if (again.isPresent()) {
            answer(
                    again.get(),
                    () -> new BatchResultFrame(again.get().counts(), again.get().generatedKeys(), null).write(out));
            return;
        }
        StatementResult result = runRemembered(frame.tag(), () -> requests.batch(state, frame), RequestOutcome::of);
        BatchResultFrame.write(out, result.updateCounts(), generatedKeys(result), result.warnings());
        out.send(output);
    }

    private void metadata(PayloadReader f) throws IOException, SQLException {
        MetadataFrame call = MetadataFrame.read(f);
        String method = call.method();
        List<Object> args = call.arguments();
        for (int i = 0; i < args.size(); i++) {
            Object arg = args.get(i);
            // The backend's driver writes string arguments into the SQL it runs.
            String what = "argument " + (i + 1) + " of DatabaseMetaData." + method;
            ClientText.withoutNul(
                    arg instanceof TypedText t ? t.text() : arg instanceof String text ? text : null, what);
        }
        writeResults(
                new StatementResult(List.of(new Rows(MetadataCall.call(vdb, state, method, args))), null),
                Integer.MAX_VALUE);
    }

    private void describe(PayloadReader f) throws IOException, SQLException {
        String sql = ClientText.statement(DescribeFrame.read(f).sql());
        StatementDescriber.describe(vdb, state, sql).write(out);
        out.send(output);
    }

    /** A client property changed: only ApplicationName means something to the controller. */
    private void clientInfo(PayloadReader f) throws ProtocolException {
        ClientInfoFrame info = ClientInfoFrame.read(f);
        if (Protocol.APPLICATION_NAME.equals(info.name())) {
            state.applicationName(info.value());
        }
    }

    /** Called from the cancel connection's thread. */
    void cancel(long secret) {
        if (secret == cancelSecret && state != null) {
            state.running().cancelAll();
        }
    }

    private void ok() throws IOException {
        OkFrame.write(out);
        out.send(output);
    }

    private void send(SQLException e) throws IOException {
        ErrorFrame.write(out, e);
        out.send(output);
    }

    /** Sends a last ERROR frame if the connection still takes one; true if it was sent. */
    private boolean sendQuietly(SQLException e) {
        try {
            if (output != null) {
                send(e);
                return true;
            }
        } catch (IOException | RuntimeException ignored) {
            // the peer is gone or not listening: closing is all that is left
        }
        return false;
    }

    private void report(Kind kind, String message) {
        registry.clientErrors().report(source, kind, message);
    }

    private String address() {
        return source == null ? "an unknown address" : source.getHostAddress();
    }

    /** Ends the session: open cursors are closed and an unfinished transaction is rolled back. */
    private void cleanUp() {
        registry.unregister(id);
        try {
            for (RowSource rows : cursors.values()) {
                rows.close();
            }
        } catch (RuntimeException | Error e) {
            log.warn("closing the cursors of session {} failed: {}", id, e.toString());
        }
        cursors.clear();
        if (state != null && vdb != null) {
            try {
                requests.sessionEnded(state);
            } catch (SQLException | RuntimeException e) {
                log.debug("rollback at end of session {} failed: {}", id, e.toString());
            } catch (Error e) {
                log.warn("rollback at end of session {} failed: {}", id, e.toString());
            }
        }
    }

    /** Forcibly ends the session (controller shutdown). */
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
