package org.raidb.controller.pgwire;

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
import java.sql.SQLWarning;
import java.util.Map;
import org.raidb.controller.backend.ProductInfo;
import org.raidb.controller.group.ReplicationProtocol;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.result.Result;
import org.raidb.controller.result.Rows;
import org.raidb.controller.result.UpdateCount;
import org.raidb.controller.session.SqlPreparedStatements;
import org.raidb.controller.tls.TlsAcceptor;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.SqlStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One PostgreSQL client connection: startup ({@link PgStartup}), then the simple query protocol here and the
 * extended one in {@link PgExtendedQuery}. Each statement enters the request path exactly as a RAIDb driver's
 * EXECUTE does: an {@link ExecuteRequest} handed to the virtual database's {@link ReplicationProtocol} with the
 * session's {@link SessionState}, so that ordering, the recovery log, determinism and routing are the same for
 * both kinds of client. What is PostgreSQL's own is kept here: the transaction block's failed state (E), the
 * command tags, the message flow.
 *
 * <p>An error a statement causes is an ErrorResponse and the session goes on; a protocol violation is a FATAL
 * ErrorResponse and the connection closes. Whatever ends the session rolls back its transaction.
 */
final class PgSession implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(PgSession.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Commands that end, start or mark transactions themselves, or that PostgreSQL runs outside any. */
    private static final java.util.Set<String> OWN_TRANSACTION_COMMANDS = java.util.Set.of(
            "BEGIN",
            "START",
            "COMMIT",
            "END",
            "ROLLBACK",
            "ABORT",
            "SAVEPOINT",
            "RELEASE",
            "PREPARE",
            "VACUUM",
            "CLUSTER",
            "REINDEX",
            "CHECKPOINT");
    /** SET [SESSION] standard_conforming_strings TO|= value, the value in group 1. */
    private static final java.util.regex.Pattern STANDARD_CONFORMING_STRINGS = java.util.regex.Pattern.compile(
            "(?is)\\s*SET\\s+(?:SESSION\\s+)?standard_conforming_strings\\s*(?:TO|=)\\s*'?(\\w+)'?\\s*;?\\s*");
    /** How many messages of one extended query are read ahead at most to see whether it runs several portals. */
    private static final int READ_AHEAD_MESSAGES = 10_000;
    /** Definitions, some forms of which cannot run in a transaction block (CREATE DATABASE, ...). */
    private static final java.util.Set<String> DEFINITION_COMMANDS = java.util.Set.of("CREATE", "ALTER", "DROP");

    /** The client's connection; once it asked for TLS, the TLS socket over it. */
    private Socket socket;

    private final PostgresFrontEnd frontEnd;
    private final int processId;
    private final int secret = RANDOM.nextInt();
    private final InetAddress source;
    private OutputStream raw;
    private PgMessageWriter out;
    private PgMessageReader in;
    private VirtualDatabase vdb;
    private ReplicationProtocol requests;
    /** The statements the client prepared with SQL's PREPARE (those of the protocol are the extended query's). */
    private final SqlPreparedStatements sqlPrepared = new SqlPreparedStatements();

    private SessionState state;
    private PgExtendedQuery extended;
    /** Messages read ahead of the one being handled ({@link #severalPortalsBeforeSync}), handled next. */
    private final java.util.ArrayDeque<PgMessage> ahead = new java.util.ArrayDeque<>();
    /** What {@link #severalPortalsBeforeSync} found in the messages {@link #ahead}. */
    private boolean severalPortalsAhead;
    /** An error in a transaction block: every statement is refused until ROLLBACK (or COMMIT, which rolls back). */
    private boolean failedTransaction;
    /** The COMMIT just run ended a failed transaction block: its tag is ROLLBACK. */
    private boolean commitRolledBack;
    /** The TimeZone timestamptz values are written in. */
    private final PgTimeZone timeZone = new PgTimeZone();

    PgSession(Socket socket, PostgresFrontEnd frontEnd, int processId) {
        this.socket = socket;
        this.frontEnd = frontEnd;
        this.processId = processId;
        this.source = socket.getInetAddress();
    }

    @Override
    public void run() {
        try {
            serve();
        } catch (PgProtocolException e) {
            log.debug("PostgreSQL session {} from {}: protocol violation: {}", processId, source, e.getMessage());
            fatal(e.sqlState(), e.getMessage());
        } catch (SocketTimeoutException e) {
            fatal(
                    SqlStates.PROTOCOL_VIOLATION,
                    "no startup packet or authentication answer in time: a client must"
                            + " send them as soon as it has connected");
        } catch (EOFException | SocketException e) {
            log.debug("PostgreSQL session {} ended: {}", processId, e.getMessage());
        } catch (IOException e) {
            log.debug("PostgreSQL session {} ended: {}", processId, e.toString());
        } catch (RuntimeException e) {
            log.error("internal error in PostgreSQL session {}", processId, e);
            fatal(
                    SqlStates.INTERNAL_ERROR,
                    "internal controller error: " + e + "; the connection is closed, please report this");
        } catch (Error e) {
            log.error(
                    "PostgreSQL session {} from {} ended by {}; its transaction is rolled back",
                    processId,
                    source,
                    e.toString());
            fatal(
                    SqlStates.OUT_OF_MEMORY,
                    "the controller could not serve this session (" + e
                            + "); the connection is closed: send smaller requests");
        } finally {
            cleanUp();
        }
    }

    private void serve() throws IOException {
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(
                (int) Math.max(1, frontEnd.registry().handshakeTimeout().toMillis()));
        TlsAcceptor tls = frontEnd.registry().tls();
        PgStartup startup = streams();
        Object first = startup.startupPacket(tls != null);
        if (first instanceof PgStartup.TlsAccepted) {
            socket = tls.upgrade(socket); // within the handshake timeout set above
            startup = streams();
            first = startup.startupPacket(false);
        } else if (tls != null && tls.clientsRequired() && !(first instanceof PgStartup.Cancel)) {
            fatal(
                    "28000",
                    "this controller takes PostgreSQL clients over TLS only: connect with sslmode=require (or"
                            + " verify-full and the controller's certificate as sslrootcert)");
            return;
        }
        if (first instanceof PgStartup.Cancel cancel) {
            frontEnd.cancel(cancel.processId(), cancel.secret());
            return;
        }
        @SuppressWarnings("unchecked")
        Map<String, String> parameters = (Map<String, String>) first;
        PgStartup.Login login;
        try {
            login = startup.authenticate(parameters, frontEnd.settings());
        } catch (SQLException e) {
            log.info("PostgreSQL login from {} refused: {}", source, e.getMessage());
            fatal(e.getSQLState(), e.getMessage());
            return;
        }
        socket.setSoTimeout(0); // a logged-in session may stay idle
        in.maxMessageBytes(frontEnd.registry().maxFrameBytes());
        if (!begin(login)) {
            return;
        }
        while (true) {
            PgMessage m = ahead.isEmpty() ? in.next() : ahead.poll();
            if (m.type() == 'X') {
                return;
            }
            handle(m);
        }
    }

    /**
     * Whether the extended query whose first portal is about to run runs more portals before its Sync, or
     * runs this one before a Flush (more may follow): PostgreSQL runs them all in one implicit transaction.
     * Reads the rest of its messages up to that Sync or Flush (the client waits for answers only after one
     * of them, so they are on their way) into {@link #ahead}, at most {@link #READ_AHEAD_MESSAGES} messages
     * and {@code maxFrameBytes} (past that, the answer is taken on what was read). Messages already read
     * ahead answer as they did.
     *
     * @param running the message running the portal is an Execute (not a Describe, whose Execute follows)
     */
    boolean severalPortalsBeforeSync(boolean running) throws IOException {
        if (!ahead.isEmpty()) {
            return severalPortalsAhead;
        }
        int executes = running ? 1 : 0;
        long bytes = 0;
        byte end = 0;
        while (ahead.size() < READ_AHEAD_MESSAGES && bytes < frontEnd.registry().maxFrameBytes()) {
            PgMessage m = in.next();
            ahead.add(m);
            bytes += m.size();
            if (m.type() == 'E') {
                executes++;
            } else if (!PgExtendedQuery.isExtended(m.type())) {
                end = m.type();
                break;
            }
        }
        severalPortalsAhead = executes >= 2 || (executes == 1 && end == 'H');
        return severalPortalsAhead;
    }

    /** Reader and writer on the connection as it is now (plain, or TLS once the client asked for it). */
    private PgStartup streams() throws IOException {
        in = new PgMessageReader(
                new BufferedInputStream(socket.getInputStream(), 16384),
                frontEnd.registry().preLoginMaxFrameBytes());
        raw = new BufferedOutputStream(socket.getOutputStream(), 16384);
        out = new PgMessageWriter(raw);
        return new PgStartup(in, out, raw, frontEnd, source);
    }

    /** The session starts: its startup settings, then the ParameterStatus messages; false when a setting failed. */
    private boolean begin(PgStartup.Login login) throws IOException {
        vdb = login.vdb();
        requests = frontEnd.registry().protocol(vdb);
        state = new SessionState(frontEnd.sessionId(processId), login.user(), vdb.transactionIds());
        String applicationName = login.parameters().getOrDefault("application_name", "");
        if (!applicationName.isEmpty()) {
            state.applicationName(applicationName);
        }
        extended = new PgExtendedQuery(this, vdb, out);
        try {
            for (String set : PgStartupSettings.of(login.parameters())) {
                run(set, null, set);
            }
            timeZone.startupDone();
        } catch (SQLException e) {
            log.info("PostgreSQL session from {} refused: its startup settings: {}", source, e.getMessage());
            fatal(
                    e.getSQLState() == null ? SqlStates.PROTOCOL_VIOLATION : e.getSQLState(),
                    withoutSeverity(String.valueOf(e.getMessage())));
            return false;
        }
        frontEnd.register(processId, this);
        out.parameterStatus("server_version", serverVersion());
        out.parameterStatus("server_encoding", "UTF8");
        out.parameterStatus("client_encoding", "UTF8");
        out.parameterStatus("DateStyle", "ISO, MDY");
        out.parameterStatus("IntervalStyle", "postgres");
        out.parameterStatus("integer_datetimes", "on");
        out.parameterStatus("standard_conforming_strings", "on");
        out.parameterStatus("TimeZone", timeZone.name());
        out.parameterStatus("is_superuser", "off");
        out.parameterStatus("session_authorization", login.user());
        out.parameterStatus("application_name", applicationName);
        out.backendKeyData(processId, secret);
        readyForQuery();
        log.debug("PostgreSQL session {} opened on {} by {}", processId, vdb.name(), login.user());
        return true;
    }

    /** The backends' version when they are PostgreSQL (clients adapt their SQL to it), else the one this speaks. */
    private String serverVersion() {
        try {
            ProductInfo p = vdb.productInfo();
            if (p != null && p.name().toLowerCase(java.util.Locale.ROOT).contains("postgres")) {
                return p.majorVersion() + "." + p.minorVersion();
            }
        } catch (SQLException e) {
            log.debug("no backend version for the PostgreSQL front end: {}", e.getMessage());
        }
        return "15.0";
    }

    private void handle(PgMessage m) throws IOException {
        switch (m.type()) {
            case 'Q' -> {
                String text = m.readCString();
                if (!extended.skipping()) {
                    simpleQuery(text);
                }
            }
            case 'S' -> {
                extended.sync();
                readyForQuery();
            }
            case 'H' -> out.flush();
            case 'P', 'B', 'D', 'E', 'C' -> extended.handle(m);
            case 'd', 'c', 'f' -> {
                // COPY data outside a COPY: PostgreSQL ignores it too
            }
            default -> throw new PgProtocolException("unexpected message '" + m.describeType() + "' after startup");
        }
    }

    // ---- the simple query protocol

    private void simpleQuery(String text) throws IOException {
        java.util.List<String> statements = PgSqlText.split(text);
        if (statements.isEmpty()) {
            out.emptyQueryResponse();
        }
        boolean implicit = implicitTransaction(statements);
        try {
            if (implicit) {
                beginImplicit();
            }
            for (String sql : statements) {
                if (PgCopyStatement.isCopy(sql)) {
                    new PgCopy(this, in, out).run(sql);
                } else {
                    sendAll(sql, run(sql, null, sql));
                }
            }
            if (implicit) {
                run("COMMIT", null, "COMMIT");
            }
        } catch (SQLException e) {
            error(e); // PostgreSQL runs none of the statements after a failed one
            if (implicit) {
                rollbackImplicit();
            }
        }
        readyForQuery();
    }

    /**
     * Whether a Query's statements run in one implicit transaction, as PostgreSQL runs them: several
     * statements, outside a transaction block, none of them controlling transactions itself or refusing to
     * run in a transaction block (VACUUM, CREATE DATABASE, ..., which then each commit on their own here,
     * where PostgreSQL would refuse them).
     */
    private boolean implicitTransaction(java.util.List<String> statements) {
        if (statements.size() < 2 || !outsideTransactionBlock()) {
            return false;
        }
        for (String sql : statements) {
            if (!mayRunInImplicitTransaction(sql)) {
                return false;
            }
        }
        return true;
    }

    /** Neither in a transaction block nor in a failed one. */
    boolean outsideTransactionBlock() {
        return !state.inTransactionMode() && !failedTransaction;
    }

    /** Whether a statement may run in an implicit transaction: it neither controls transactions nor refuses one. */
    static boolean mayRunInImplicitTransaction(String sql) {
        String command = PgCommandTag.command(sql);
        if (OWN_TRANSACTION_COMMANDS.contains(command)) {
            return false;
        }
        return !(DEFINITION_COMMANDS.contains(command)
                && sql.toUpperCase(java.util.Locale.ROOT)
                        .matches("(?s).*\\b(DATABASE|CONCURRENTLY|TABLESPACE|SYSTEM)\\b.*"));
    }

    /** An implicit transaction begins: the one of a Query's statements, or of an extended query's portals. */
    void beginImplicit() throws SQLException {
        run("BEGIN", null, "BEGIN");
    }

    /**
     * The implicit transaction of an extended query ends at its Sync: committed, or rolled back when one of
     * its messages failed (or its commit does, which the client then hears of).
     */
    void endImplicit(boolean failed) {
        if (failed || failedTransaction) {
            rollbackImplicit();
            return;
        }
        if (state.inTransactionMode()) {
            try {
                run("COMMIT", null, "COMMIT");
            } catch (SQLException e) {
                error(e);
                rollbackImplicit();
            }
        }
    }

    /** The implicit transaction of a Query that failed: none of its statements stay. */
    private void rollbackImplicit() {
        failedTransaction = false;
        try {
            requests.rollback(state);
        } catch (SQLException e) {
            log.debug("rollback of a failed multi-statement Query on session {}: {}", processId, e.toString());
        }
    }

    /** Every result of a statement: the rows and the tag of each, in order. */
    private void sendAll(String sql, StatementResult r) throws IOException, SQLException {
        try {
            notices(r.warnings());
            for (Result item : r.results()) {
                if (item instanceof Rows set) {
                    try (PgRows rows = new PgRows(set.source())) {
                        out.rowDescription(rows.fields(new int[0]));
                        sendRows(rows, new int[0], 0);
                        out.commandComplete(tag(sql, rows.sent(), true));
                    }
                } else if (item instanceof UpdateCount c) {
                    out.commandComplete(tag(sql, c.count(), false));
                }
            }
        } catch (SQLException | RuntimeException e) {
            r.discard();
            throw e;
        }
    }

    /** Sends up to {@code maxRows} rows (0: all); whether rows are left. */
    boolean sendRows(PgRows rows, int[] formats, long maxRows) throws IOException, SQLException {
        long sent = 0;
        try {
            while ((maxRows <= 0 || sent < maxRows) && rows.hasNext()) {
                out.dataRow(rows.encode(rows.next(), formats, timeZone.zone()));
                sent++;
                out.flushIfFull();
            }
            return rows.hasNext();
        } catch (SQLException | RuntimeException e) {
            failedIfInTransaction(true); // a read that fails midway aborts the transaction block, as on PostgreSQL
            throw e;
        }
    }

    void notices(SQLWarning w) {
        for (SQLWarning n = w; n != null; n = n.getNextWarning()) {
            out.notice(
                    'N', "NOTICE", n.getSQLState() == null ? "01000" : n.getSQLState(), String.valueOf(n.getMessage()));
        }
    }

    // ---- the request path, shared by both protocols

    /**
     * Runs one statement through the request path, as the driver's EXECUTE does.
     *
     * @param sql the text as the backends take it ({@code ?} markers)
     * @param parameters the bound values, null for a statement without parameters (a plain Statement)
     * @param clientSql the text as the client wrote it, which says what kind of command it is
     */
    StatementResult run(String sql, java.util.List<Object> parameters, String clientSql) throws SQLException {
        String command = PgCommandTag.command(clientSql);
        if (failedTransaction) {
            return inFailedTransaction(sql, parameters, command);
        }
        if (command.equals("DEALLOCATE") || SqlPreparedStatements.isPrepare(clientSql)) {
            // The statements a client prepared, through the protocol or with SQL's PREPARE, live here, not on a
            // backend connection.
            try {
                if (command.equals("PREPARE")) {
                    sqlPrepared.prepare(clientSql);
                } else {
                    String name = PgCommandTag.deallocated(clientSql);
                    if (!sqlPrepared.deallocate(clientSql) || name == null) {
                        extended.deallocate(name);
                    }
                }
            } catch (SQLException e) {
                failedIfInTransaction(state.inTransactionMode());
                throw e;
            }
            return new StatementResult(java.util.List.of(new UpdateCount(-1)), null);
        }
        if (command.equals("EXECUTE")) {
            String statement;
            try {
                statement = sqlPrepared.expand(clientSql, parameters != null && !parameters.isEmpty());
            } catch (SQLException e) {
                failedIfInTransaction(state.inTransactionMode());
                throw e;
            }
            return run(statement, null, statement);
        }
        String zoneSetting = command.equals("SET") || command.equals("RESET") || command.equals("DISCARD")
                ? timeZoneSetting(clientSql)
                : null;
        StatementResult result;
        if (command.equals("DISCARD") && PgCommandTag.of(clientSql, -1, false).equals("DISCARD ALL")) {
            result = runOnBackends(sql, parameters);
            extended.closeAll();
            extended.deallocate(null);
            sqlPrepared.clear();
        } else {
            result = runOnBackends(sql, parameters);
        }
        if (zoneSetting != null) {
            String before = timeZone.name();
            timeZone.apply(zoneSetting);
            if (!timeZone.name().equals(before)) {
                out.parameterStatus("TimeZone", timeZone.name()); // as PostgreSQL reports a change of it, and only then
            }
        }
        if (command.equals("SET")) {
            reportStandardConformingStrings(clientSql);
        }
        return result;
    }

    /** Clients parse string literals by it (pgjdbc's backslash escapes): PostgreSQL reports its changes. */
    private void reportStandardConformingStrings(String setSql) {
        java.util.regex.Matcher scs = STANDARD_CONFORMING_STRINGS.matcher(setSql);
        if (scs.matches()) {
            String v = scs.group(1).toLowerCase(java.util.Locale.ROOT);
            out.parameterStatus(
                    "standard_conforming_strings",
                    v.equals("off") || v.equals("false") || v.equals("0") ? "off" : "on");
        }
    }

    /** The TimeZone a SET or RESET gives the session (see {@link PgTimeZone#settingIn}), refused before it runs. */
    private String timeZoneSetting(String clientSql) throws SQLException {
        try {
            return PgTimeZone.settingIn(clientSql);
        } catch (SQLException e) {
            failedIfInTransaction(state.inTransactionMode());
            throw e;
        }
    }

    /** The TimeZone this session's timestamptz values are written in. */
    java.time.ZoneId timeZone() {
        return timeZone.zone();
    }

    private StatementResult runOnBackends(String sql, java.util.List<Object> parameters) throws SQLException {
        boolean wasInTransaction = state.inTransactionMode();
        ExecuteRequest r = new ExecuteRequest(
                sql,
                parameters,
                Protocol.MODE_ANY,
                false,
                null,
                Protocol.DEFAULT_FETCH_SIZE,
                0,
                0,
                false,
                false); // PostgreSQL's text has no JDBC escapes to translate
        try {
            return requests.execute(state, r);
        } catch (SQLException e) {
            failedIfInTransaction(wasInTransaction);
            throw e;
        }
    }

    /** Only the end of the transaction block, or a return to a savepoint, runs in a failed one. */
    private StatementResult inFailedTransaction(String sql, java.util.List<Object> parameters, String command)
            throws SQLException {
        if (command.equals("ROLLBACK") && isRollbackTo(sql)) {
            failedTransaction = false;
            try {
                return run(sql, parameters, sql);
            } catch (SQLException e) {
                failedTransaction = true;
                throw e;
            }
        }
        if (command.equals("ROLLBACK")
                || command.equals("ABORT")
                || command.equals("COMMIT")
                || command.equals("END")) {
            requests.rollback(state);
            failedTransaction = false;
            commitRolledBack = command.equals("COMMIT") || command.equals("END");
            return new StatementResult(java.util.List.of(new UpdateCount(0)), null);
        }
        throw new SQLException(
                "current transaction is aborted, commands ignored until end of transaction block: send ROLLBACK",
                SqlStates.IN_FAILED_TRANSACTION);
    }

    /** The tag of a statement's result; a COMMIT that ended a failed transaction block is a ROLLBACK. */
    String tag(String sql, long count, boolean returnedRows) {
        if (commitRolledBack) {
            commitRolledBack = false;
            return "ROLLBACK";
        }
        // EXECUTE answers with the tag of the statement it ran (SELECT 3, INSERT 0 1), as on PostgreSQL.
        return PgCommandTag.of(
                SqlPreparedStatements.isExecute(sql) ? sqlPrepared.statementOf(sql) : sql, count, returnedRows);
    }

    private static boolean isRollbackTo(String sql) {
        return sql.toUpperCase(java.util.Locale.ROOT).matches("(?s)\\s*ROLLBACK\\s+(WORK\\s+|TRANSACTION\\s+)?TO\\b.*");
    }

    /** An error after the statement ran (a COPY cut off midway) aborts the transaction block it ran in. */
    void failed() {
        failedIfInTransaction(false);
    }

    /** A COPY that ran in a transaction of its own failed: none of its rows stay, and the session is idle again. */
    void rollbackFailedCopy() throws SQLException {
        failedTransaction = false;
        requests.rollback(state);
    }

    private void failedIfInTransaction(boolean wasInTransaction) {
        if (wasInTransaction || state.inTransactionMode()) {
            failedTransaction = true;
        }
    }

    SessionState state() {
        return state;
    }

    // ---- answers

    void error(SQLException e) {
        String sqlState = e.getSQLState() == null ? SqlStates.INTERNAL_ERROR : e.getSQLState();
        org.postgresql.util.ServerErrorMessage backend = backendError(e);
        if (backend != null && sqlState.equals(backend.getSQLState())) {
            out.error(PgErrorFields.of(backend));
            return;
        }
        out.notice('E', "ERROR", sqlState, withoutSeverity(String.valueOf(e.getMessage())));
    }

    /**
     * The ErrorResponse a PostgreSQL backend sent, when the error is one (pgjdbc keeps it whole): its detail,
     * hint, position and the names of the schema, table, column, type and constraint reach the client as
     * PostgreSQL's own fields instead of being folded into the message.
     */
    private static org.postgresql.util.ServerErrorMessage backendError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.postgresql.util.PSQLException p && p.getServerErrorMessage() != null) {
                return p.getServerErrorMessage();
            }
        }
        return null;
    }

    /**
     * A backend's message as pgjdbc words it starts with its severity ("ERROR: …"); the ErrorResponse has a
     * field for that, and clients print both ("ERROR:  ERROR: …").
     */
    private static String withoutSeverity(String message) {
        return message.startsWith("ERROR: ") ? message.substring("ERROR: ".length()) : message;
    }

    private void readyForQuery() throws IOException {
        out.readyForQuery(failedTransaction ? 'E' : state.inTransactionMode() ? 'T' : 'I');
        out.flush();
    }

    /** A last FATAL ErrorResponse, if the connection still takes one. */
    private void fatal(String sqlState, String message) {
        if (out == null) {
            return;
        }
        try {
            out.notice('E', "FATAL", sqlState, message);
            out.flush();
        } catch (IOException | RuntimeException ignored) {
            // the client is gone: closing is all that is left
        }
    }

    /** Called from a CancelRequest's connection. */
    void cancel(int givenSecret) {
        if (givenSecret == secret && state != null) {
            state.running().cancelAll();
        }
    }

    private void cleanUp() {
        frontEnd.unregister(processId, this);
        try {
            if (extended != null) {
                extended.closeAll();
            }
            if (state != null) {
                requests.sessionEnded(state);
            }
        } catch (SQLException | RuntimeException e) {
            log.debug("rollback at end of PostgreSQL session {} failed: {}", processId, e.toString());
        } finally {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }
}
