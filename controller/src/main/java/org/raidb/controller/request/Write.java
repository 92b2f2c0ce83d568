package org.raidb.controller.request;

import java.util.Collections;
import java.util.List;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.recovery.LoggableWrite;
import org.raidb.controller.recovery.LoggedRequest;
import org.raidb.controller.recovery.LoggedStatement;
import org.raidb.controller.scheduler.Claim;
import org.raidb.controller.scheduler.ClaimSource;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.SessionState;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.transaction.WriteUnit;

/**
 * One write as it travels the request path: what the client sent (a statement or a batch), what the
 * analysis made of it, and what the path gives it on the way (conflict claims, the write-gate unit,
 * the scheduler's locks, its log entries, its target backends and their lanes). A transaction's
 * COMMIT, ROLLBACK or savepoint command is a write too, with no analysis: it runs on the lanes the
 * transaction already has.
 */
public final class Write implements LoggableWrite {
    private final SessionState session;
    /** A transaction's command ends or marks a transaction it knows; a statement's is the session's. */
    private final boolean command;

    private Transaction transaction;
    private boolean transactionKnown;
    /** Null for a transaction's command. */
    private final AnalyzedStatement analysis;

    private final List<AnalyzedStatement> parts;
    private final List<String> texts;
    private final List<List<Object>> parameterRows;
    private final List<LoggedStatement> logEntries;
    private final String statement;
    private BackendWork work;

    private long owner;
    private ClaimSource claims;
    private boolean waitForAll;
    private WriteUnit unit = WriteUnit.NONE;
    /** The statement's locks in the scheduler; null until it admitted the write. */
    private List<Claim> locks;

    private LoggedRequest logged;
    private List<DatabaseBackend> targets = List.of();
    private List<BackendLane> lanes;

    private Write(
            SessionState session,
            boolean command,
            AnalyzedStatement analysis,
            List<AnalyzedStatement> parts,
            List<String> texts,
            List<List<Object>> parameterRows,
            List<LoggedStatement> logEntries,
            String statement,
            BackendWork work) {
        this.session = session;
        this.command = command;
        this.analysis = analysis;
        this.parts = parts;
        this.texts = texts;
        this.parameterRows = parameterRows;
        this.logEntries = logEntries;
        this.statement = statement;
        this.work = work;
    }

    /**
     * One client statement, possibly rewritten into several (MariaDB's ALTER TABLE in two).
     *
     * @param sql the statement as the client sent it, whose DDL is followed into the catalogue
     * @param parameters the values the client bound, or null for a plain Statement
     * @param logEntries the statements as every backend runs them, as the log keeps them
     * @param statement the text that runs, as errors and divergences name it
     */
    static Write statement(
            SessionState s,
            AnalyzedStatement a,
            String sql,
            List<Object> parameters,
            List<LoggedStatement> logEntries,
            String statement,
            BackendWork work) {
        return new Write(
                s,
                false,
                a,
                List.of(a),
                List.of(sql),
                Collections.singletonList(parameters),
                logEntries,
                statement,
                work);
    }

    /**
     * A JDBC batch, written like one statement whose analysis {@code a} is the union of its statements'.
     *
     * @param parts the analyses of the batch's statements, whose rows, sequences and tables are its
     *     conflict classes and whose DDL is followed into the catalogue
     * @param texts those statements as the client sent them
     * @param parameterRows a prepared batch's rows of values as the client bound them, or null for a
     *     batch of texts
     * @param statement how errors and divergences name the batch
     */
    public static Write batch(
            SessionState s,
            AnalyzedStatement a,
            List<AnalyzedStatement> parts,
            List<String> texts,
            List<List<Object>> parameterRows,
            List<LoggedStatement> logEntries,
            String statement,
            BackendWork work) {
        return new Write(s, false, a, parts, texts, parameterRows, logEntries, statement, work);
    }

    /**
     * A command that ends or marks a transaction on every lane it has, already logged.
     *
     * @param tx the transaction whose failure the command's outcome records (none for a ROLLBACK)
     */
    static Write command(
            SessionState s,
            Transaction tx,
            String statement,
            BackendWork work,
            List<BackendLane> lanes,
            LoggedRequest logged,
            boolean waitForAll) {
        Write w = new Write(s, true, null, List.of(), List.of(), null, List.of(), statement, work);
        w.transaction = tx;
        w.transactionKnown = true;
        w.lanes = lanes;
        w.logged = logged;
        w.waitForAll = waitForAll;
        return w;
    }

    SessionState session() {
        return session;
    }

    /**
     * A statement's transaction is taken when the write path first asks, as it runs: a session in
     * transaction mode starts one then, not while the write is still being checked.
     */
    @Override
    public Transaction transaction() {
        if (!transactionKnown) {
            transaction = session.transaction();
            transactionKnown = true;
        }
        return transaction;
    }

    boolean inTransaction() {
        return transaction() != null;
    }

    /** The statement's analysis; null for a transaction's command, which has no effect of its own to record. */
    AnalyzedStatement analysis() {
        return analysis;
    }

    List<AnalyzedStatement> parts() {
        return parts;
    }

    List<String> texts() {
        return texts;
    }

    List<List<Object>> parameterRows() {
        return parameterRows;
    }

    String statement() {
        return statement;
    }

    /** An auto-commit write borrows its connections and gives them back; a transaction's lanes keep theirs. */
    boolean ownsConnections() {
        return !command && transaction() == null;
    }

    BackendWork work() {
        return work;
    }

    /** What runs on each backend, wrapped by what must happen around it there (following DDL into catalogues). */
    void work(BackendWork around) {
        work = around;
    }

    @Override
    public String login() {
        return session.virtualUser();
    }

    @Override
    public List<LoggedStatement> logEntries() {
        return logEntries;
    }

    @Override
    public boolean isDdl() {
        return analysis.kind() == StatementKind.DDL;
    }

    /**
     * The tables a log entry names, which replay filters by: those written, or for a statement that
     * writes none but runs where its tables are (SELECT … FOR UPDATE), those it reads. Empty when the
     * tables are unknown: the statement went to every backend.
     */
    @Override
    public List<String> loggedTables() {
        if (analysis.touchesEverything()) {
            return List.of();
        }
        return List.copyOf(analysis.tablesWritten().isEmpty() ? analysis.tablesRead() : analysis.tablesWritten());
    }

    /** The id it holds its conflict classes under: its transaction's, or its own as an auto-commit write. */
    @Override
    public long owner() {
        return owner;
    }

    void owner(long id) {
        owner = id;
    }

    ClaimSource claims() {
        return claims;
    }

    void claims(ClaimSource source) {
        claims = source;
    }

    /** REPEATABLE READ and SERIALIZABLE: the client is answered once every backend's outcome is known. */
    boolean waitsForAll() {
        return waitForAll;
    }

    void waitForAll(boolean all) {
        waitForAll = all;
    }

    WriteUnit unit() {
        return unit;
    }

    void unit(WriteUnit entered) {
        unit = entered;
    }

    boolean admitted() {
        return locks != null;
    }

    List<Claim> locks() {
        return locks;
    }

    void admitted(List<Claim> statementLocks) {
        locks = statementLocks;
    }

    LoggedRequest logged() {
        return logged;
    }

    void logged(LoggedRequest request) {
        logged = request;
    }

    @Override
    public List<DatabaseBackend> targets() {
        return targets;
    }

    void targets(List<DatabaseBackend> backends) {
        targets = backends;
    }

    List<BackendLane> lanes() {
        return lanes;
    }

    void lanes(List<BackendLane> joined) {
        lanes = joined;
    }
}
