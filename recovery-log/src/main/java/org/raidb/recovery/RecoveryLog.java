package org.raidb.recovery;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The recovery log of one virtual database, stored through JDBC.
 *
 * <p>Positions are assigned here, under one lock, in the order {@link #appendAsync} is called; the
 * controller calls it where its scheduler fixes the write order, so log order is write order.
 * Entries reach the store through the {@link GroupCommitWriter}. Checkpoints, backend states and
 * dumps go straight to the store on a second connection ({@link LogCatalog}).
 */
public final class RecoveryLog implements AutoCloseable {

    /** Login recorded on the ROLLBACK entries the log writes itself for abandoned transactions. */
    public static final String RECOVERY_LOGIN = "raidb-recovery";

    private static final DateTimeFormatter CHECKPOINT_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final RecoveryLogConfig config;
    private final LogSchema schema;
    private final LogEntryRows rows;
    private final Connection admin;
    private final LogCatalog catalog;
    private final GroupCommitWriter writer;
    private final Object positionLock = new Object();
    private final Object checkpointLock = new Object();
    private long lastPosition;

    private RecoveryLog(RecoveryLogConfig config, LogSchema schema, Connection admin, Connection writerConnection)
            throws SQLException {
        this.config = config;
        this.schema = schema;
        this.rows = new LogEntryRows(schema);
        this.admin = admin;
        this.catalog = new LogCatalog(admin, schema, config.virtualDatabase());
        // Checkpoints count too: after a purge of everything the log table may be empty.
        long maxEntry = catalog.queryLong(
                "SELECT MAX(log_position) FROM " + schema.log + " WHERE vdb = ?", 0, config.virtualDatabase());
        long maxCheckpoint = catalog.queryLong(
                "SELECT MAX(log_position) FROM " + schema.checkpoint + " WHERE vdb = ?", 0, config.virtualDatabase());
        this.lastPosition = Math.max(maxEntry, maxCheckpoint);
        this.writer = new GroupCommitWriter(writerConnection, config, rows, lastPosition);
    }

    /**
     * Opens (creating its tables if needed) the log described by {@code config}. Transactions left
     * open by a controller that stopped without ending them are closed with a ROLLBACK entry: the
     * backends rolled them back when the controller's connections died.
     *
     * @throws RecoveryLogException if the store cannot be reached, the tables cannot be created, or
     *     the store holds another schema version
     */
    public static RecoveryLog open(RecoveryLogConfig config) throws RecoveryLogException {
        Connection admin = connect(config);
        Connection writerConnection = null;
        try {
            LogSchema schema = new LogSchema(config.tablePrefix());
            schema.createOrCheck(admin, StoreDialect.of(admin.getMetaData()), config.jdbcUrl());
            writerConnection = connect(config);
            RecoveryLog log = new RecoveryLog(config, schema, admin, writerConnection);
            log.rollBackAbandonedTransactions();
            return log;
        } catch (SQLException e) {
            closeQuietly(writerConnection);
            closeQuietly(admin);
            if (e instanceof RecoveryLogException r) {
                throw r;
            }
            throw new RecoveryLogException(
                    "Cannot open the recovery log in " + config.jdbcUrl() + ": " + e.getMessage(),
                    RecoveryLogException.SYSTEM_ERROR,
                    e);
        }
    }

    static Connection connect(RecoveryLogConfig config) throws RecoveryLogException {
        try {
            return DriverManager.getConnection(
                    StoreUrl.forConnecting(config.jdbcUrl()), config.user(), config.password());
        } catch (SQLException e) {
            throw new RecoveryLogException(
                    "Cannot reach the recovery log store at " + config.jdbcUrl() + " (" + e.getMessage()
                            + "). Check that the database is running and reachable from the controller, the URL, user and password"
                            + " (recoveryLog.url / user / password), and that its JDBC driver is on the class path;"
                            + " virtual database " + config.virtualDatabase()
                            + " cannot start without its recovery log.",
                    RecoveryLogException.CONNECTION_UNABLE,
                    e);
        }
    }

    // ---------------------------------------------------------------- entries

    /**
     * Assigns the entry its position and queues it for the store. Call it where the write order is
     * decided; await the result before acknowledging the write.
     */
    public PendingAppend appendAsync(LogEntry entry) throws RecoveryLogException {
        return appendAllAsync(List.of(entry)).get(0);
    }

    /**
     * Queues entries at consecutive positions, all or none: their parameters are encoded first, here on
     * the caller's thread, so that a value the log cannot store fails this call (and the write is not
     * run) instead of the writer, and never leaves part of a transaction in the log.
     */
    public List<PendingAppend> appendAllAsync(List<LogEntry> entries) throws RecoveryLogException {
        List<byte[]> encoded = new ArrayList<>(entries.size());
        for (LogEntry e : entries) {
            try {
                encoded.add(e.parameters().isEmpty() ? null : ParameterCodec.encode(e.parameters()));
            } catch (IllegalArgumentException unstorable) {
                throw new RecoveryLogException(
                        "the write was not run: " + unstorable.getMessage()
                                + "; bind the parameter with a standard JDBC type (setString, setLong, setBigDecimal, setTimestamp, ...)",
                        RecoveryLogException.INVALID_PARAMETER_VALUE,
                        unstorable);
            }
        }
        List<PendingAppend> appended = new ArrayList<>(entries.size());
        synchronized (positionLock) {
            for (int i = 0; i < entries.size(); i++) {
                CompletableFuture<Long> durable = new CompletableFuture<>();
                long position = lastPosition + 1;
                writer.submit(
                        new GroupCommitWriter.Append(entries.get(i).withPosition(position), encoded.get(i), durable));
                lastPosition = position;
                appended.add(new PendingAppend(position, durable));
            }
        }
        return appended;
    }

    /** Appends and returns the position once the entry is committed in the store. */
    public long append(LogEntry entry) throws RecoveryLogException {
        return appendAsync(entry).await();
    }

    /** Records the outcome of an entry logged before execution; returns once it is durable. */
    public void setOutcome(long position, Outcome outcome) throws RecoveryLogException {
        new PendingAppend(position, setOutcomeAsync(position, outcome).thenApply(v -> position)).await();
    }

    public CompletableFuture<Void> setOutcomeAsync(long position, Outcome outcome) throws RecoveryLogException {
        CompletableFuture<Void> done = new CompletableFuture<>();
        writer.submit(new GroupCommitWriter.SetOutcome(position, outcome, done));
        return done;
    }

    /** The last position assigned (durable or not yet). */
    public long lastPosition() {
        synchronized (positionLock) {
            return lastPosition;
        }
    }

    /** The last position committed in the store. */
    public long lastDurablePosition() {
        return writer.lastDurablePosition();
    }

    /** How many store transactions the writer has committed, and how many entries they carried. */
    public GroupCommitStats groupCommitStats() {
        return new GroupCommitStats(writer.storeCommits(), writer.entriesWritten());
    }

    public record GroupCommitStats(long storeCommits, long entriesWritten) {}

    /** Entries stored with a position in {@code (from, to]}: the work of a replay from {@code from}. */
    public long entriesBetween(long from, long to) throws SQLException {
        synchronized (admin) {
            return catalog.queryLong(
                    "SELECT COUNT(*) FROM " + schema.log + " WHERE vdb = ? AND log_position > ?"
                            + " AND log_position <= ?",
                    0,
                    config.virtualDatabase(),
                    from,
                    to);
        }
    }

    /** The largest transaction id in the log (0 if none): new transaction ids must be larger. */
    public long maxTransactionId() throws RecoveryLogException {
        return withCatalog(
                "read the largest transaction id",
                c -> c.queryLong(
                        "SELECT MAX(tx_id) FROM " + schema.log + " WHERE vdb = ?", 0, config.virtualDatabase()));
    }

    /**
     * Whether the log holds a COMMIT of the transaction that did not fail: the decision of a two-phase
     * commit, read by a controller restarted between the two phases.
     */
    public boolean committed(long transactionId) throws RecoveryLogException {
        return withCatalog(
                "look up transaction " + transactionId,
                c -> c.queryLong(
                                "SELECT COUNT(*) FROM " + schema.log
                                        + " WHERE vdb = ? AND tx_id = ? AND kind = 'COMMIT' AND outcome <> 'FAILED'",
                                0,
                                config.virtualDatabase(),
                                transactionId)
                        > 0);
    }

    /**
     * Items (auto-commit writes and DDL, commits) whose outcome was never recorded: after a controller
     * crash, the writes that were running on the backends when it died.
     */
    public List<Long> pendingItems() throws RecoveryLogException {
        return withCatalog("list pending items", c -> {
            List<Long> positions = new ArrayList<>();
            try (PreparedStatement ps = c.prepare(
                            "SELECT log_position FROM " + schema.log + " WHERE vdb = ? AND outcome = ?"
                                    + " AND (kind IN ('AUTOCOMMIT_WRITE', 'COMMIT') OR (kind = 'DDL' AND tx_id = 0)) ORDER BY log_position",
                            config.virtualDatabase(),
                            Outcome.Status.PENDING.name());
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    positions.add(rs.getLong(1));
                }
            }
            return positions;
        });
    }

    // ---------------------------------------------------------------- checkpoints

    /**
     * Names the current last position. Returns once every entry up to it is durable, so that a
     * checkpoint never points past the durable log.
     */
    public Checkpoint checkpoint(String name) throws RecoveryLogException {
        return checkpointAt(name, -1, Set.of());
    }

    /**
     * Names {@code position} (the current last position when negative) for a backend that holds
     * every item up to it plus the later items at {@code alsoApplied} (item positions: an
     * auto-commit write's, a transaction's COMMIT's). A backend that failed while non-conflicting
     * writes ran in parallel on it has such a ragged edge; replaying from this checkpoint skips those
     * items. Returns once the log is durable up to its current end.
     */
    public Checkpoint checkpointAt(String name, long position, Collection<Long> alsoApplied)
            throws RecoveryLogException {
        return checkpointAt(name, position, alsoApplied, Set.of());
    }

    /**
     * As {@link #checkpointAt(String, long, Collection)}, and records the later items at {@code inDoubt}
     * that the backend may or may not hold: its connection broke while it ran them. A replay from the
     * checkpoint applies them with care ({@link #inDoubtAfter}).
     */
    public Checkpoint checkpointAt(String name, long position, Collection<Long> alsoApplied, Collection<Long> inDoubt)
            throws RecoveryLogException {
        if (name == null || name.isBlank() || name.length() > 255) {
            throw new IllegalArgumentException("a checkpoint name has 1 to 255 characters, got " + name);
        }
        synchronized (checkpointLock) {
            try {
                OptionalLong existing = checkpointPosition(name);
                if (existing.isPresent()) {
                    throw new RecoveryLogException(
                            "Checkpoint " + name + " already exists in the recovery log of "
                                    + config.virtualDatabase() + " (at position " + existing.getAsLong()
                                    + "); checkpoint names are unique, choose another name.",
                            RecoveryLogException.UNIQUE_VIOLATION);
                }
                long last = lastPosition();
                if (position > last) {
                    throw new IllegalArgumentException(
                            "checkpoint " + name + " at " + position + " is past the log's end " + last);
                }
                long at = position < 0 ? last : position;
                CompletableFuture<Void> reached = new CompletableFuture<>();
                writer.submit(new GroupCommitWriter.Barrier(reached));
                new PendingAppend(last, reached.thenApply(v -> last)).await();
                Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
                inCatalogTransaction(c -> {
                    c.insertCheckpoint(name, at, now);
                    for (long applied : alsoApplied) {
                        if (applied > at) {
                            c.insertApplied(name, applied);
                        }
                    }
                    for (long doubtful : inDoubt) {
                        if (doubtful > at) {
                            c.insertInDoubt(name, doubtful);
                        }
                    }
                    return null;
                });
                return new Checkpoint(name, at, now);
            } catch (RecoveryLogException e) {
                throw e;
            } catch (SQLException e) {
                throw storeFailure("record checkpoint " + name, e);
            }
        }
    }

    public OptionalLong checkpointPosition(String name) throws RecoveryLogException {
        return withCatalog("read checkpoint " + name, c -> c.checkpointPosition(name));
    }

    /** All checkpoints, oldest first. */
    public List<Checkpoint> checkpoints() throws RecoveryLogException {
        return withCatalog("list checkpoints", c -> c.checkpoints());
    }

    /**
     * A fresh checkpoint name such as {@code pg2-disabled-20261122T041500Z-123}: backend, reason, UTC
     * time and the current last position, with a suffix if that name is taken.
     */
    public String autoCheckpointName(String backend, String reason) throws RecoveryLogException {
        String base = backend + "-" + reason + "-" + CHECKPOINT_TIME.format(Instant.now()) + "-" + lastPosition();
        String name = base;
        for (int n = 2; checkpointPosition(name).isPresent(); n++) {
            name = base + "-" + n;
        }
        return name;
    }

    // ---------------------------------------------------------------- backends and dumps

    /** Saves the state and the cause together: a crash between the two must not leave a cause of an older state. */
    public void saveBackendState(String backend, BackendStateRecord state) throws RecoveryLogException {
        withCatalog(
                "save the state of backend " + backend,
                c -> inCatalogTransaction(t -> {
                    t.saveBackendState(backend, state);
                    return null;
                }));
    }

    /** Every recorded backend, by name. */
    public Map<String, BackendStateRecord> backendStates() throws RecoveryLogException {
        return withCatalog("read backend states", c -> c.backendStates());
    }

    public void registerDump(DumpRecord dump) throws RecoveryLogException {
        if (!dump.virtualDatabase().equals(config.virtualDatabase())) {
            throw new IllegalArgumentException("dump " + dump.name() + " belongs to virtual database "
                    + dump.virtualDatabase() + ", not to " + config.virtualDatabase());
        }
        if (checkpointPosition(dump.checkpoint()).isEmpty()) {
            throw new RecoveryLogException(
                    "Dump " + dump.name() + " names checkpoint " + dump.checkpoint() + ", which the recovery log of "
                            + config.virtualDatabase() + " does not have; take the checkpoint first.",
                    RecoveryLogException.UNDEFINED_OBJECT);
        }
        synchronized (admin) {
            try {
                if (catalog.dump(dump.name()).isPresent()) {
                    throw new RecoveryLogException(
                            "A dump named " + dump.name() + " is already registered; dump names are unique.",
                            RecoveryLogException.UNIQUE_VIOLATION);
                }
                catalog.insertDump(dump);
            } catch (RecoveryLogException e) {
                throw e;
            } catch (SQLException e) {
                throw storeFailure("register dump " + dump.name(), e);
            }
        }
    }

    public Optional<DumpRecord> dump(String name) throws RecoveryLogException {
        return withCatalog("read dump " + name, c -> c.dump(name));
    }

    public List<DumpRecord> dumps() throws RecoveryLogException {
        return withCatalog("list dumps", c -> c.dumps(null));
    }

    /** Forgets a dump (the file itself is the controller's business). False if there was none. */
    public boolean removeDump(String name) throws RecoveryLogException {
        return withCatalog("remove dump " + name, c -> c.deleteDump(name));
    }

    // ---------------------------------------------------------------- replay and purge

    /** What a backend that stopped at checkpoint {@code checkpointName} must re-apply. */
    public ReplayCursor replayFrom(String checkpointName) throws RecoveryLogException {
        OptionalLong position = checkpointPosition(checkpointName);
        if (position.isEmpty()) {
            throw new RecoveryLogException(
                    "No checkpoint " + checkpointName + " in the recovery log of "
                            + config.virtualDatabase() + " (it may have been purged); known: "
                            + checkpoints().stream().map(Checkpoint::name).toList(),
                    RecoveryLogException.UNDEFINED_OBJECT);
        }
        return replayFrom(position.getAsLong(), appliedAfter(checkpointName));
    }

    /** The items after the checkpoint that its backend holds too (a replay from it skips them). */
    public Set<Long> appliedAfter(String checkpointName) throws RecoveryLogException {
        return withCatalog("read checkpoint " + checkpointName, c -> c.appliedAfter(checkpointName));
    }

    /** The items after the checkpoint that its backend may or may not hold (its connection broke as they ran). */
    public Set<Long> inDoubtAfter(String checkpointName) throws RecoveryLogException {
        return withCatalog("read checkpoint " + checkpointName, c -> c.inDoubtAfter(checkpointName));
    }

    /** What a backend that has applied everything up to {@code position} must re-apply. */
    public ReplayCursor replayFrom(long position) throws RecoveryLogException {
        return replayFrom(position, Set.of());
    }

    private ReplayCursor replayFrom(long position, Set<Long> alreadyApplied) throws RecoveryLogException {
        long purgedBefore = purgeHorizon();
        if (position < purgedBefore) {
            throw new RecoveryLogException(
                    "The recovery log of " + config.virtualDatabase() + " was purged up to position " + purgedBefore
                            + "; it cannot replay from " + position + ". Restore a newer dump.",
                    RecoveryLogException.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        Connection connection = connect(config);
        try {
            return new ReplayCursor(
                    this,
                    connection,
                    rows.selectRange,
                    config.virtualDatabase(),
                    position,
                    scanStart(position),
                    alreadyApplied);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw storeFailure("start a replay from position " + position, e);
        }
    }

    /**
     * Deletes the entries no replay from {@code checkpointName} or later needs, and the checkpoints
     * before it. Refused while a disabled backend or a registered dump still needs an older one.
     *
     * @return the number of log entries deleted
     */
    public int purgeBefore(String checkpointName) throws RecoveryLogException {
        long cut = checkpointPosition(checkpointName)
                .orElseThrow(() -> new IllegalArgumentException(
                        "no checkpoint " + checkpointName + " in the recovery log of " + config.virtualDatabase()));
        List<String> needers = new ArrayList<>();
        for (Map.Entry<String, BackendStateRecord> b : backendStates().entrySet()) {
            BackendStateRecord s = b.getValue();
            if (s.state() != RecordedBackendState.ENABLED && s.lastCheckpoint() != null) {
                OptionalLong p = checkpointPosition(s.lastCheckpoint());
                if (p.isPresent() && p.getAsLong() < cut) {
                    needers.add(
                            "backend " + b.getKey() + " (" + s.state() + " at checkpoint " + s.lastCheckpoint() + ")");
                }
            }
        }
        for (DumpRecord d : dumps()) {
            OptionalLong p = checkpointPosition(d.checkpoint());
            if (p.isPresent() && p.getAsLong() < cut) {
                needers.add("dump " + d.name() + " (checkpoint " + d.checkpoint() + ")");
            }
        }
        if (!needers.isEmpty()) {
            throw new RecoveryLogException(
                    "Cannot purge the recovery log of " + config.virtualDatabase() + " before "
                            + checkpointName + ": still needed by " + String.join(", ", needers)
                            + ". Enable or re-dump those backends, or remove those dumps, first.",
                    RecoveryLogException.OBJECT_IN_USE);
        }
        synchronized (admin) {
            try {
                long keepFrom = scanStart(cut);
                admin.setAutoCommit(false);
                int deleted = catalog.update(
                        "DELETE FROM " + schema.log + " WHERE vdb = ? AND log_position < ?",
                        config.virtualDatabase(),
                        keepFrom);
                catalog.deleteCheckpointsBefore(cut);
                if (catalog.update(
                                "UPDATE " + schema.meta + " SET meta_value = ? WHERE meta_key = ?",
                                Long.toString(cut),
                                horizonKey())
                        == 0) {
                    catalog.update(
                            "INSERT INTO " + schema.meta + " (meta_key, meta_value) VALUES (?, ?)",
                            horizonKey(),
                            Long.toString(cut));
                }
                admin.commit();
                return deleted;
            } catch (SQLException e) {
                try {
                    admin.rollback();
                } catch (SQLException ignored) {
                    // reported below
                }
                throw storeFailure("purge before " + checkpointName, e);
            } finally {
                try {
                    admin.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // the next use reports a broken connection
                }
            }
        }
    }

    /**
     * Where a replay from {@code position} must start reading: the first entry of the oldest
     * transaction still open at {@code position} (its writes were not committed on a backend that
     * stopped there), else {@code position + 1}.
     */
    private long scanStart(long position) throws SQLException {
        String vdb = config.virtualDatabase();
        synchronized (admin) {
            long oldestOpen = catalog.queryLong(
                    "SELECT MIN(l.log_position) FROM " + schema.log + " l WHERE l.vdb = ?"
                            + " AND l.log_position <= ? AND l.tx_id <> 0 AND NOT EXISTS (SELECT 1 FROM " + schema.log
                            + " e"
                            + " WHERE e.vdb = l.vdb AND e.tx_id = l.tx_id AND e.log_position <= ? AND e.kind IN ('COMMIT', 'ROLLBACK'))",
                    Long.MAX_VALUE,
                    vdb,
                    position,
                    position);
            return Math.min(oldestOpen, position + 1);
        }
    }

    private long purgeHorizon() throws RecoveryLogException {
        synchronized (admin) {
            try (PreparedStatement ps = catalog.prepare(
                            "SELECT meta_value FROM " + schema.meta + " WHERE meta_key = ?", horizonKey());
                    ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Long.parseLong(rs.getString(1)) : 0;
            } catch (SQLException e) {
                throw storeFailure("read the purge horizon", e);
            }
        }
    }

    private String horizonKey() {
        return "purged_before/" + config.virtualDatabase();
    }

    private void rollBackAbandonedTransactions() throws SQLException {
        List<Long> abandoned = new ArrayList<>();
        synchronized (admin) {
            try (PreparedStatement ps = catalog.prepare(
                            "SELECT DISTINCT l.tx_id FROM " + schema.log + " l WHERE l.vdb = ?"
                                    + " AND l.tx_id <> 0 AND NOT EXISTS (SELECT 1 FROM " + schema.log
                                    + " e WHERE e.vdb = l.vdb"
                                    + " AND e.tx_id = l.tx_id AND e.kind IN ('COMMIT', 'ROLLBACK')) ORDER BY l.tx_id",
                            config.virtualDatabase());
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    abandoned.add(rs.getLong(1));
                }
            }
        }
        for (long tx : abandoned) {
            append(LogEntry.rollback(tx, RECOVERY_LOGIN).withOutcome(Outcome.SUCCESS));
        }
    }

    private interface CatalogCall<T> {
        T call(LogCatalog catalog) throws SQLException;
    }

    /** Runs calls on the catalog connection in one store transaction: all of them happen, or none. */
    private <T> T inCatalogTransaction(CatalogCall<T> call) throws SQLException {
        synchronized (admin) {
            admin.setAutoCommit(false);
            try {
                T result = call.call(catalog);
                admin.commit();
                return result;
            } catch (SQLException e) {
                admin.rollback();
                throw e;
            } finally {
                admin.setAutoCommit(true);
            }
        }
    }

    /** Runs one call on the catalog connection, turning a store error into one that says what failed. */
    private <T> T withCatalog(String what, CatalogCall<T> call) throws RecoveryLogException {
        synchronized (admin) {
            try {
                return call.call(catalog);
            } catch (RecoveryLogException e) {
                throw e;
            } catch (SQLException e) {
                throw storeFailure(what, e);
            }
        }
    }

    private RecoveryLogException storeFailure(String what, SQLException e) {
        return new RecoveryLogException(
                "Recovery log of " + config.virtualDatabase() + " in " + config.jdbcUrl() + ": could not " + what + ": "
                        + e.getMessage(),
                e.getSQLState() == null ? RecoveryLogException.IO_ERROR : e.getSQLState(),
                e);
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing; the first error is the one to report
            }
        }
    }

    public RecoveryLogConfig config() {
        return config;
    }

    /** Writes what is queued, then closes the store connections. */
    @Override
    public void close() throws SQLException {
        try {
            writer.close();
        } finally {
            admin.close();
        }
    }
}
