package org.raidb.controller.recovery;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.RecoveryLogSettings;
import org.raidb.controller.files.PrivateFiles;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.transaction.WriteUnit;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.LogEntry;
import org.raidb.recovery.Outcome;
import org.raidb.recovery.PendingAppend;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.RecoveryLogConfig;
import org.raidb.recovery.RecoveryLogException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Step 8 of the request path: the virtual database's recovery log as the write path uses it.
 *
 * <p>Entries are appended where the scheduler has ordered the write (its conflict locks are held),
 * so that log order is write order. Under the same lock each item is registered with the backends
 * it is sent to, and a backend is disabled: therefore every item logged before a backend left was
 * registered with it and every item logged after never runs there, which makes its checkpoint
 * exact (see {@link BackendProgress}).
 */
public final class WriteLog implements AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(WriteLog.class);
    private final RecoveryLog log;
    /** The directory of the embedded H2 store's files, kept private; null for a store elsewhere. */
    private final Path embeddedStore;

    private final Object order = new Object();
    private final Map<String, BackendProgress> progress = new ConcurrentHashMap<>();
    private final WriteGate gate = new WriteGate();
    private volatile boolean closed;

    private WriteLog(RecoveryLog log, Path embeddedStore) {
        this.embeddedStore = embeddedStore;
        this.log = log;
    }

    /** A virtual database configured without a log. */
    public static WriteLog none() {
        return new WriteLog(null, null);
    }

    /**
     * Opens the log configured for a virtual database. An unreachable store is an error: a virtual
     * database that could not log its writes could not bring a backend back.
     */
    public static WriteLog open(String virtualDatabase, RecoveryLogSettings settings, Path dataDir)
            throws RecoveryLogException {
        if (!settings.enabled()) {
            return none();
        }
        Path embeddedStore = settings.url() == null ? RecoveryLogConfig.h2Directory(dataDir) : null;
        RecoveryLogConfig config = embeddedStore != null
                ? RecoveryLogConfig.h2File(dataDir, virtualDatabase)
                : RecoveryLogConfig.of(settings.url(), settings.user(), settings.password(), virtualDatabase);
        config = config.withTablePrefix(settings.tablePrefix())
                .withGroupCommit(settings.maxBatchEntries(), settings.maxWaitMicros());
        if (embeddedStore != null) {
            try {
                // The log holds every row ever written: its directory is private before H2 creates a file in it.
                PrivateFiles.createDirectories(embeddedStore);
            } catch (IOException e) {
                throw new RecoveryLogException(
                        "cannot create the recovery log's directory " + embeddedStore + ": " + e.getMessage()
                                + "; check that dataDir is writable by the controller's user",
                        SqlStates.IO_ERROR,
                        e);
            }
        }
        WriteLog opened = new WriteLog(RecoveryLog.open(config), embeddedStore);
        if (settings.purgeAfter() != null) {
            opened.log.purgeAutomatically(settings.purgeAfter());
        }
        try {
            opened.restrictStoreFiles();
        } catch (IOException e) {
            RecoveryLogException refused = new RecoveryLogException(
                    "cannot make the recovery log's files in " + embeddedStore + " private: " + e.getMessage()
                            + "; check that the controller's user owns them",
                    SqlStates.IO_ERROR,
                    e);
            try {
                opened.log.close();
            } catch (SQLException closing) {
                refused.addSuppressed(closing);
            }
            throw refused;
        }
        return opened;
    }

    /** H2 creates its files with the process's umask; narrowed to the controller's user once they exist. */
    private void restrictStoreFiles() throws IOException {
        if (embeddedStore != null) {
            PrivateFiles.restrictTree(embeddedStore);
        }
    }

    public boolean enabled() {
        return log != null;
    }

    /** The log itself, for the recovery operations; null when the virtual database runs without one. */
    public RecoveryLog log() {
        return log;
    }

    // ---- the write path -----------------------------------------------------------------------------

    /**
     * A new unit of work (an auto-commit write, or a transaction's first logged statement) waits here
     * while a backend is being enabled. Returns the unit the caller closes once every backend answered:
     * an auto-commit write's own; for a statement of a transaction none, since the transaction holds
     * its unit until it ends.
     */
    public WriteUnit enterUnit(Transaction tx) {
        if (log == null || (tx != null && tx.isLogged())) {
            return WriteUnit.NONE;
        }
        WriteUnit unit = gate.enter();
        if (tx == null) {
            return unit;
        }
        tx.markLogged(unit);
        return WriteUnit.NONE;
    }

    /**
     * Logs the statements of one write. Outside a transaction the write is an item: one statement is
     * an auto-commit write (or DDL), several (a batch) are logged as a transaction of their own.
     */
    public LoggedRequest logWrite(LoggableWrite w) throws SQLException {
        List<LoggedStatement> statements = w.logEntries();
        if (log == null || statements.isEmpty()) {
            return LoggedRequest.NONE;
        }
        Transaction tx = w.transaction();
        String login = w.login();
        List<String> tablesWritten = w.loggedTables();
        List<LogEntry> entries = new ArrayList<>(statements.size() + 1);
        if (tx != null || statements.size() > 1) {
            long txId = tx != null ? tx.id() : w.owner();
            for (LoggedStatement st : statements) {
                entries.add(
                        w.isDdl() && st.parameters() == null
                                ? LogEntry.ddl(txId, login, st.sql(), tablesWritten)
                                : LogEntry.write(txId, login, st.sql(), st.parameters(), tablesWritten));
            }
            if (tx == null) {
                entries.add(LogEntry.commit(txId, login));
            }
        } else {
            LoggedStatement st = statements.get(0);
            entries.add(
                    w.isDdl() && st.parameters() == null
                            ? LogEntry.ddl(0, login, st.sql(), tablesWritten)
                            : LogEntry.autoCommitWrite(login, st.sql(), st.parameters(), tablesWritten));
        }
        return append(entries, tx == null, w.targets());
    }

    /** Logs SAVEPOINT, ROLLBACK TO SAVEPOINT or RELEASE SAVEPOINT of a transaction. */
    public LoggedRequest logSavepoint(Transaction tx, String login, String command, String name) throws SQLException {
        if (log == null) {
            return LoggedRequest.NONE;
        }
        LogEntry e = switch (command) {
            case "SAVEPOINT" -> LogEntry.savepoint(tx.id(), login, name);
            case "ROLLBACK TO SAVEPOINT" -> LogEntry.rollbackToSavepoint(tx.id(), login, name);
            default -> LogEntry.releaseSavepoint(tx.id(), login, name);
        };
        return append(List.of(e), false, List.of());
    }

    /** Logs the end of a transaction that logged something; a COMMIT is an item of the backends it runs on. */
    public LoggedRequest logEnd(Transaction tx, String login, boolean commit, List<DatabaseBackend> targets)
            throws SQLException {
        if (log == null || !tx.isLogged()) {
            return LoggedRequest.NONE;
        }
        LogEntry e = commit ? LogEntry.commit(tx.id(), login) : LogEntry.rollback(tx.id(), login);
        return append(List.of(e), commit, targets);
    }

    private LoggedRequest append(List<LogEntry> entries, boolean isItem, List<DatabaseBackend> targets)
            throws SQLException {
        if (closed) {
            throw new SQLException(
                    "the virtual database is shutting down; retry on another controller", SqlStates.CONNECTION_FAILURE);
        }
        List<Long> positions = new ArrayList<>(entries.size());
        PendingAppend last = null;
        synchronized (order) {
            for (PendingAppend appended : log.appendAllAsync(entries)) {
                last = appended;
                positions.add(last.position());
            }
            if (isItem) {
                for (DatabaseBackend b : targets) {
                    if (b.isEnabled()) {
                        progressOf(b).sent(last.position());
                    }
                }
            }
        }
        return new LoggedRequest(this, isItem ? last.position() : -1, positions, last);
    }

    void ranOn(DatabaseBackend backend, long item, boolean succeeded, boolean maybeApplied) {
        BackendProgress p = progressOf(backend);
        if (succeeded) {
            p.applied(item);
        } else {
            p.missed(item, maybeApplied);
        }
    }

    void notNeededOn(DatabaseBackend backend, long item) {
        progressOf(backend).notNeeded(item);
    }

    void failedEverywhere(long item) {
        progress.values().forEach(p -> p.failedEverywhere(item));
    }

    void recordOutcome(List<Long> positions, Outcome outcome) {
        if (closed) {
            return;
        }
        try {
            for (long p : positions) {
                log.setOutcomeAsync(p, outcome).exceptionally(e -> {
                    // A log that stops fails its later appends too, which say why; the outcome is only missing on
                    // replay.
                    logger.error(
                            "write #{}: its outcome ({}) could not be recorded in the recovery log", p, outcome, e);
                    return null;
                });
            }
        } catch (RecoveryLogException e) {
            // The log has stopped; appends fail from now on and say why.
        }
    }

    // ---- backends leaving and joining ---------------------------------------------------------------

    /**
     * Runs {@code disable} (which marks the backend disabled) in the write order: nothing logged after
     * it reaches the backend. Returns false if the backend was already disabled.
     */
    public boolean disable(DatabaseBackend backend, java.util.function.BooleanSupplier disable) {
        synchronized (order) {
            boolean changed = disable.getAsBoolean();
            if (changed && log != null) {
                progressOf(backend).freeze(log.lastPosition());
            }
            return changed;
        }
    }

    /** Runs {@code enable} in the write order: every item logged from now on is sent to the backend. */
    public void enable(DatabaseBackend backend, Runnable enable) {
        synchronized (order) {
            progressOf(backend).reset();
            enable.run();
        }
    }

    /**
     * Where a disabled backend stopped: waits (at most {@code timeoutMillis}) for the work it still had
     * to be answered, then returns its edge. Work still unanswered then counts as not applied.
     */
    public BackendProgress.Edge edgeOf(DatabaseBackend backend, long timeoutMillis) throws InterruptedException {
        BackendProgress p = progressOf(backend);
        p.awaitSettled(System.nanoTime() + timeoutMillis * 1_000_000);
        return p.edge();
    }

    WriteGate gate() {
        return gate;
    }

    /**
     * Holds new units of work at the gate and waits until none is open: then every enabled backend has
     * answered every write and ended every transaction logged so far, so each holds the same writes.
     * Returns false, holding nothing, when that takes longer than {@code timeoutMillis}; after true the
     * caller must {@link #releaseWrites}. Without a recovery log there is no gate: false.
     */
    public boolean holdWrites(long timeoutMillis) {
        return log != null && gate.closeAndDrain(timeoutMillis);
    }

    /** Lets the writes held by {@link #holdWrites} go on. */
    public void releaseWrites() {
        gate.reopen();
    }

    /** Units of work not over yet: auto-commit writes some backend has not answered, logged transactions not ended. */
    public int openUnits() {
        return log == null ? 0 : gate.openUnits();
    }

    private BackendProgress progressOf(DatabaseBackend b) {
        return progress.computeIfAbsent(b.name(), n -> new BackendProgress());
    }

    @Override
    public void close() throws SQLException {
        closed = true;
        if (log != null) {
            log.close();
            try {
                restrictStoreFiles(); // a trace file H2 wrote since it opened
            } catch (IOException e) {
                logger.warn("cannot make the recovery log's files in {} private: {}", embeddedStore, e.getMessage());
            }
        }
    }
}
