package org.raidb.recovery;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

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

    /** Positions one purge transaction deletes at most. */
    static final long PURGE_BATCH_POSITIONS = 2_000;

    /** Under a write load a purge waits this many times as long as each batch took (see {@link #paced}). */
    static final int PURGE_PAUSE_FACTOR = 3;

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
    /** One purge at a time; it takes the catalogue connection batch by batch, never across batches. */
    private final Object purgeLock = new Object();

    private final int vdbId;
    private final StoreDialect dialect;
    /** Where the restart's read of the log began: pending items and unfinished commits are at or after it. */
    private final long tailStart;

    private final List<Long> abandoned;
    private long lastPosition;
    private volatile long maxTransactionId;
    private final AtomicReference<ScheduledExecutorService> automaticPurge = new AtomicReference<>();
    /** When entries were last appended: a purge paces itself while the log is being written. */
    private volatile long lastAppendNanos = System.nanoTime() - TimeUnit.HOURS.toNanos(1);

    /** UTF-8 bytes of the SQL texts and encoded parameters appended since the log was opened. */
    private final AtomicLong recordedBytes = new AtomicLong();

    private volatile String automaticPurgeFailure;

    private RecoveryLog(
            RecoveryLogConfig config,
            LogSchema schema,
            StoreDialect dialect,
            int vdbId,
            Connection admin,
            Connection writerConnection)
            throws SQLException {
        this.config = config;
        this.schema = schema;
        this.dialect = dialect;
        this.vdbId = vdbId;
        this.rows = new LogEntryRows(schema, vdbId);
        this.admin = admin;
        this.catalog = new LogCatalog(admin, schema, config.virtualDatabase());
        // What a restart reads is bounded: the tail saved last, then the entries after it (LogTail).
        LoadedTail loaded = loadTail(Long.MAX_VALUE, true);
        LogTail tail = loaded.tail();
        this.tailStart = loaded.pendingFrom();
        long lastStatementId = catalog.queryLong(rows.maxStatementId, 0);
        StoreWriter store = new StoreWriter(
                writerConnection, rows, tail, lastStatementId, rows.insertTail, vdbId, dialect.inlineBinaryLimit());
        // Before anything reads the tail: what the journal holds beyond the store goes into it (and the tail).
        LogJournal journal = openJournal(config, store, vdbId);
        this.abandoned = new ArrayList<>(tail.openTransactions().keySet());
        this.maxTransactionId = tail.maxTransactionId();
        // Checkpoints count too: after a purge of everything the log table may be empty.
        long maxCheckpoint = catalog.queryLong(
                "SELECT MAX(log_position) FROM " + schema.checkpoint + " WHERE vdb = ?", 0, config.virtualDatabase());
        this.lastPosition = Math.max(tail.position(), maxCheckpoint);
        this.writer = new GroupCommitWriter(config, store, journal, lastPosition);
    }

    /**
     * The journal in front of an embedded H2 file store ({@link LogJournal}), after storing what it held past
     * the store's end (a controller that stopped without closing its log); null for any other store.
     */
    private static LogJournal openJournal(RecoveryLogConfig config, StoreWriter store, int vdbId) throws SQLException {
        Path file = StoreUrl.h2File(config.jdbcUrl());
        if (!store.embeddedH2() || file == null) {
            return null;
        }
        LogJournal journal = null;
        try {
            journal = LogJournal.open(file, vdbId);
            long stored = store.lastStoredPosition();
            List<GroupCommitWriter.Operation> missing = new ArrayList<>();
            for (GroupCommitWriter.Operation op : journal.recorded()) {
                if (!(op instanceof GroupCommitWriter.Append a) || a.entry().position() > stored) {
                    missing.add(op);
                }
            }
            if (!missing.isEmpty()) {
                store.write(missing, false);
            }
            journal.clear(0);
            journal.clear(1);
            return journal;
        } catch (SQLException e) {
            closeQuietly(journal); // the controller may retry opening the log: the files must be free
            throw e;
        } catch (IOException | RuntimeException e) {
            closeQuietly(journal);
            throw new SQLException(
                    "Cannot read the recovery log's journal next to " + file + ": " + e.getMessage()
                            + ". Check the files' permissions and the disk; do not delete them (they hold"
                            + " acknowledged writes not yet in the store).",
                    RecoveryLogException.IO_ERROR,
                    e);
        }
    }

    /** {@code pendingFrom}: where the items still pending start (a restart's search for them reads from there). */
    private record LoadedTail(LogTail tail, long pendingFrom) {}

    /**
     * What the log says at {@code upTo}: the last tail saved at or before it, brought up to {@code upTo} by
     * reading the entries after it, at most about {@link LogTail#SNAPSHOT_EVERY}, not the log's length. For a
     * restart ({@code withPending}) also the items still pending before the saved tail (writes that were
     * running when it was saved): read from the oldest of them on, which the tail recorded.
     */
    private LoadedTail loadTail(long upTo, boolean withPending) throws SQLException {
        synchronized (admin) {
            long saved = catalog.queryLong(rows.lastTailAtOrBefore, -1, vdbId, upTo);
            LogTail tail = new LogTail(0);
            long readFrom = 0;
            long pendingFrom = 0;
            if (saved >= 0) {
                try (PreparedStatement ps = catalog.prepare(rows.tailAt, vdbId, saved);
                        ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        tail = LogTail.of(rs.getLong(1), rs.getLong(2), rs.getString(4));
                        readFrom = rs.getLong(1) + 1;
                        pendingFrom = Math.min(readFrom, rs.getLong(3));
                    }
                }
            }
            try (PreparedStatement ps = catalog.prepare(rows.tailBetween, readFrom, upTo);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tail.accept(
                            rs.getLong(1),
                            EntryKind.ofCode(rs.getInt(2)),
                            rs.getLong(3),
                            Outcome.Status.ofCode(rs.getInt(4)));
                }
            }
            if (withPending && pendingFrom < readFrom) {
                for (long p : pendingItemsFrom(catalog, pendingFrom)) {
                    tail.pending(p);
                }
            }
            return new LoadedTail(tail, pendingFrom);
        }
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
            StoreDialect dialect = StoreDialect.of(admin.getMetaData());
            int vdbId = schema.createOrCheck(admin, dialect, config.jdbcUrl(), config.virtualDatabase());
            writerConnection = connect(config);
            RecoveryLog log = new RecoveryLog(config, schema, dialect, vdbId, admin, writerConnection);
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
        long bytes = 0;
        for (LogEntry e : entries) {
            try {
                byte[] parameters = e.parameters().isEmpty() ? null : ParameterCodec.encode(e.parameters());
                encoded.add(parameters);
                bytes += (e.sql() == null ? 0 : e.sql().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                        + (parameters == null ? 0 : parameters.length);
            } catch (IllegalArgumentException unstorable) {
                throw new RecoveryLogException(
                        "the write was not run: " + unstorable.getMessage()
                                + "; bind the parameter with a standard JDBC type (setString, setLong, setBigDecimal, setTimestamp, ...)",
                        RecoveryLogException.INVALID_PARAMETER_VALUE,
                        unstorable);
            }
        }
        recordedBytes.addAndGet(bytes);
        lastAppendNanos = System.nanoTime();
        List<PendingAppend> appended = new ArrayList<>(entries.size());
        synchronized (positionLock) {
            for (LogEntry e : entries) {
                // Under the lock: two appenders must not lower it in turn.
                if (e.transactionId() > maxTransactionId) {
                    maxTransactionId = e.transactionId();
                }
            }
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

    /** The last position durable: a write acknowledged after it survives a controller crash. */
    public long lastDurablePosition() {
        return writer.lastDurablePosition();
    }

    /** The last position that queries on the store see (with a journal, up to about a second behind). */
    long lastStoredPosition() {
        return writer.lastStoredPosition();
    }

    /** Returns once the store holds every entry up to {@code position} and every outcome queued so far. */
    void awaitStored(long position) throws RecoveryLogException {
        // Without a journal (or before its first record) what is durable is stored: only a position not yet
        // durable needs the barrier. With one, outcomes may wait in it even when the position is stored.
        if (position <= writer.lastStoredPosition() && writer.journalWrites() == 0) {
            return;
        }
        CompletableFuture<Void> reached = new CompletableFuture<>();
        writer.submit(new GroupCommitWriter.Barrier(reached));
        new PendingAppend(position, reached.thenApply(v -> position)).await();
    }

    /** How many store transactions the writer has committed, and how many entries they carried. */
    public GroupCommitStats groupCommitStats() {
        return new GroupCommitStats(writer.storeCommits(), writer.entriesWritten(), writer.journalWrites());
    }

    /**
     * {@code journalWrites}: records written to the journal of an embedded H2 store, each making a batch of
     * appenders' operations durable (0 for other stores, where each store commit does).
     */
    public record GroupCommitStats(long storeCommits, long entriesWritten, long journalWrites) {}

    /**
     * Bytes the store spends on this log, divided by the entries it holds (those after the purge horizon);
     * empty when the store cannot say. H2: the size of the store's file (which all virtual databases sharing
     * it count); PostgreSQL: the entry and statement tables with their indexes and TOAST; MariaDB: their data
     * and index length from the table statistics (empty until InnoDB has gathered them).
     */
    public java.util.OptionalDouble bytesPerEntry() {
        long entries;
        try {
            entries = lastPosition() - purgeHorizon();
        } catch (RecoveryLogException e) {
            return java.util.OptionalDouble.empty();
        }
        long bytes = storeBytes();
        // 0 for a log that holds entries: statistics not gathered yet (InnoDB refreshes them lazily).
        return bytes <= 0 || entries <= 0
                ? java.util.OptionalDouble.empty()
                : java.util.OptionalDouble.of((double) bytes / entries);
    }

    /**
     * With the journal of an embedded H2 store: milliseconds the log's writer has waited, in all, for the store
     * to take what the journal holds (it waits when 20,000 operations are not stored yet; acknowledgements stop
     * meanwhile). 0 for other stores.
     */
    public long storeWaitMillis() {
        return TimeUnit.NANOSECONDS.toMillis(writer.storeWaitNanos());
    }

    /**
     * What the entries appended since the log was opened record: the UTF-8 bytes of their SQL texts plus their
     * parameters as encoded. On a new log, {@link #storeBytes()} over this is the log's size against what it holds.
     */
    public long recordedBytes() {
        return recordedBytes.get();
    }

    /** The bytes {@link #bytesPerEntry()} divides, or -1 if the store cannot say. */
    public long storeBytes() {
        String product = dialect.product().toLowerCase(java.util.Locale.ROOT);
        try {
            if (product.contains("h2")) {
                Path file = StoreUrl.h2File(config.jdbcUrl());
                return file == null || !java.nio.file.Files.exists(file)
                        ? -1
                        : java.nio.file.Files.size(file) + writer.journalBytes();
            }
            String sql;
            if (product.contains("postgres")) {
                sql = "SELECT pg_total_relation_size(?) + pg_total_relation_size(?)";
            } else if (product.contains("mariadb") || product.contains("mysql")) {
                sql = "SELECT SUM(data_length + index_length) FROM information_schema.tables"
                        + " WHERE table_schema = DATABASE() AND table_name IN (?, ?)";
            } else {
                return -1;
            }
            synchronized (admin) {
                return catalog.queryLong(sql, -1, rows.log, rows.statements);
            }
        } catch (SQLException | IOException e) {
            return -1;
        }
    }

    /** Entries stored with a position in {@code (from, to]}: the work of a replay from {@code from}. */
    public long entriesBetween(long from, long to) throws SQLException {
        awaitStored(Math.min(to, lastPosition()));
        synchronized (admin) {
            return catalog.queryLong(rows.countBetween, 0, from, to);
        }
    }

    /** The largest transaction id in the log (0 if none): new transaction ids must be larger. */
    public long maxTransactionId() {
        return maxTransactionId;
    }

    /**
     * Whether the log holds a COMMIT of the transaction that did not fail: the decision of a two-phase
     * commit, read by a controller restarted between the two phases.
     */
    public boolean committed(long transactionId) throws RecoveryLogException {
        awaitStored(lastPosition());
        // A transaction left prepared by a crash was committing then: its COMMIT is pending, so it is in the
        // part of the log the restart read. Further back only in the rare case that its outcome was
        // recorded before the crash.
        return withCatalog(
                "look up transaction " + transactionId,
                c -> committedFrom(c, tailStart, transactionId)
                        || (tailStart > 0 && committedFrom(c, 0, transactionId)));
    }

    private boolean committedFrom(LogCatalog c, long from, long transactionId) throws SQLException {
        return c.queryLong(
                        rows.committedFrom,
                        0,
                        from,
                        transactionId,
                        EntryKind.COMMIT.code(),
                        Outcome.Status.FAILED.code())
                > 0;
    }

    /**
     * Items (auto-commit writes and DDL, commits) whose outcome was never recorded: after a controller
     * crash, the writes that were running on the backends when it died.
     */
    public List<Long> pendingItems() throws RecoveryLogException {
        awaitStored(lastPosition());
        return withCatalog("list pending items", c -> pendingItemsFrom(c, tailStart));
    }

    /**
     * Only the part of the log from {@code from} on can hold one: older items had their outcome recorded
     * (the saved tail keeps the oldest item pending when it was saved).
     */
    private List<Long> pendingItemsFrom(LogCatalog c, long from) throws SQLException {
        List<Long> positions = new ArrayList<>();
        try (PreparedStatement ps = c.prepare(rows.pendingFrom, from, Outcome.Status.PENDING.code());
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (LogTail.isItem(EntryKind.ofCode(rs.getInt(2)), rs.getLong(3))) {
                    positions.add(rs.getLong(1));
                }
            }
        }
        return positions;
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
                // Durable up to the log's end, not only up to the checkpoint: what the backend holds after it
                // (alsoApplied, inDoubt) must be in the log too.
                CompletableFuture<Void> reached = new CompletableFuture<>();
                writer.submit(new GroupCommitWriter.Barrier(reached));
                new PendingAppend(last, reached.thenApply(v -> last)).await();
                long scanStart = scanStart(at);
                Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
                inCatalogTransaction(c -> {
                    c.insertCheckpoint(name, at, scanStart, now);
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
        long scanStart = withCatalog("read checkpoint " + checkpointName, c -> c.checkpointScanStart(checkpointName))
                .orElse(position.getAsLong() + 1);
        return replayFrom(position.getAsLong(), scanStart, appliedAfter(checkpointName));
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
        try {
            return replayFrom(position, scanStart(position), Set.of());
        } catch (SQLException e) {
            throw storeFailure("start a replay from position " + position, e);
        }
    }

    private ReplayCursor replayFrom(long position, long scanStart, Set<Long> alreadyApplied)
            throws RecoveryLogException {
        long purgedBefore = purgeHorizon();
        if (position < purgedBefore) {
            throw new RecoveryLogException(
                    "The recovery log of " + config.virtualDatabase() + " was purged up to position " + purgedBefore
                            + "; it cannot replay from " + position + ". Restore a newer dump.",
                    RecoveryLogException.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        Connection connection = connect(config);
        try {
            return new ReplayCursor(this, connection, rows.selectRange, position, scanStart, alreadyApplied);
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
        synchronized (purgeLock) {
            try {
                long keepFrom = withCatalog(
                                "read checkpoint " + checkpointName, c -> c.checkpointScanStart(checkpointName))
                        .orElse(cut + 1);
                // The horizon first: a replay that starts while entries go refuses an older checkpoint instead
                // of reading a log with holes.
                inCatalogTransaction(c -> {
                    if (c.update(
                                    "UPDATE " + schema.meta + " SET meta_value = ? WHERE meta_key = ?",
                                    Long.toString(cut),
                                    horizonKey())
                            == 0) {
                        c.update(
                                "INSERT INTO " + schema.meta + " (meta_key, meta_value) VALUES (?, ?)",
                                horizonKey(),
                                Long.toString(cut));
                    }
                    return null;
                });
                int deleted = 0;
                long from = withCatalog("read the log's start", c -> c.queryLong(rows.minPosition, keepFrom));
                // Bounded batches, each its own store transaction, the catalogue connection taken for one batch
                // at a time: writes, checkpoints and admin requests go on between them.
                while (from < keepFrom) {
                    long to = Math.min(keepFrom, from + PURGE_BATCH_POSITIONS);
                    long batchFrom = from;
                    deleted += paced(() -> inCatalogTransaction(c -> c.update(rows.deleteRange, batchFrom, to)));
                    from = to;
                }
                deleteUnusedStatements(keepFrom);
                inCatalogTransaction(c -> {
                    // The saved tails before the last one a replay from keepFrom on could start from.
                    long keptTail = c.queryLong(rows.lastTailAtOrBefore, -1, vdbId, keepFrom);
                    if (keptTail > 0) {
                        c.update(rows.deleteTailsBefore, vdbId, keptTail);
                    }
                    return c.deleteCheckpointsBefore(cut);
                });
                return deleted;
            } catch (RecoveryLogException e) {
                throw e;
            } catch (SQLException e) {
                throw storeFailure("purge before " + checkpointName, e);
            }
        }
    }

    /**
     * Runs one purge batch, then, if entries were appended in the last second, waits {@link
     * #PURGE_PAUSE_FACTOR} times as long as the batch took: a purge competes with the writes for the store
     * (and, on an embedded H2 store, for the controller's cores), so under a write load it takes at most a
     * quarter of the time. Measured with 16 writers (docs/benchmarks.md): unpaced, a purge of 1.5 M entries
     * took 7 s and the writes ran at 0.21 to 0.54 of their pace.
     */
    private int paced(PurgeBatch batch) throws SQLException {
        long t0 = System.nanoTime();
        int n = batch.run();
        // Writes in the last second, not only during the batch: writers the batch held up did not append
        // while it ran, and a purge that judged by that alone would go on unpaced and hold them up again.
        if (System.nanoTime() - lastAppendNanos < TimeUnit.SECONDS.toNanos(1)) {
            try {
                TimeUnit.NANOSECONDS.sleep((System.nanoTime() - t0) * PURGE_PAUSE_FACTOR);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RecoveryLogException(
                        "the purge of the recovery log of " + config.virtualDatabase()
                                + " was interrupted (the controller is stopping); what it deleted stays deleted,"
                                + " run it again to finish",
                        RecoveryLogException.QUERY_CANCELED);
            }
        }
        return n;
    }

    /**
     * Deletes the statement rows that no entry from {@code keepFrom} on refers to, in bounded batches like the
     * entries (StatementIds knows which: it keeps the ids still in use).
     */
    private void deleteUnusedStatements(long keepFrom) throws SQLException {
        StatementIds ids = writer.statementIds();
        List<StatementIds.IdRange> unused = ids.unusedBefore(keepFrom);
        for (StatementIds.IdRange r : unused) {
            for (long from = r.from(); from <= r.to(); from += PURGE_BATCH_POSITIONS) {
                long batchFrom = from;
                long batchTo = Math.min(r.to(), from + PURGE_BATCH_POSITIONS - 1);
                paced(() -> inCatalogTransaction(c -> c.update(rows.deleteStatements, batchFrom, batchTo)));
            }
        }
        ids.forget(unused);
    }

    /**
     * Purges what nothing needs any more and is older than {@code age}: takes a checkpoint of the log's
     * end (when the log has moved since the last checkpoint), then purges before the newest checkpoint
     * created at least {@code age} ago that is not past the checkpoint of any backend that is not enabled
     * or of any registered dump (so it is never refused for them). Returns the entries deleted (0 when
     * there is nothing to purge yet).
     */
    public int purgeOlderThan(Duration age) throws RecoveryLogException {
        synchronized (purgeLock) {
            List<Checkpoint> all = checkpoints();
            long last = lastPosition();
            if (all.isEmpty() || all.get(all.size() - 1).position() < last) {
                checkpoint(autoCheckpointName("log", "purge"));
                all = checkpoints();
            }
            long needed = Long.MAX_VALUE;
            for (BackendStateRecord s : backendStates().values()) {
                if (s.state() != RecordedBackendState.ENABLED && s.lastCheckpoint() != null) {
                    needed = Math.min(
                            needed, checkpointPosition(s.lastCheckpoint()).orElse(Long.MAX_VALUE));
                }
            }
            for (DumpRecord d : dumps()) {
                needed = Math.min(needed, checkpointPosition(d.checkpoint()).orElse(Long.MAX_VALUE));
            }
            Instant limit = Instant.now().minus(age);
            Checkpoint cut = null;
            for (Checkpoint c : all) {
                if (!c.createdAt().isAfter(limit) && c.position() <= needed) {
                    cut = c; // oldest first: the last one that qualifies is the newest
                }
            }
            if (cut == null || cut.position() <= purgeHorizon()) {
                return 0;
            }
            return purgeBefore(cut.name());
        }
    }

    /**
     * Runs {@link #purgeOlderThan} on a thread of its own every quarter of {@code age} (at least every
     * second, at most every 15 minutes) until the log is closed. A failed round is retried at the next.
     */
    public void purgeAutomatically(Duration age) {
        long everyMillis = Math.max(
                1000, Math.min(age.toMillis() / 4, Duration.ofMinutes(15).toMillis()));
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "raidb-recovery-log-purge-" + config.virtualDatabase());
            t.setDaemon(true);
            return t;
        });
        ScheduledExecutorService previous = automaticPurge.getAndSet(timer);
        if (previous != null) {
            previous.shutdownNow();
        }
        var unused = timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        purgeOlderThan(age);
                    } catch (RecoveryLogException | RuntimeException e) {
                        // The store said why; the next round tries again (a purge is never required for writes).
                        automaticPurgeFailure = e.getMessage();
                    }
                },
                everyMillis,
                everyMillis,
                TimeUnit.MILLISECONDS);
    }

    /** Why the last automatic purge failed, or null. */
    public String automaticPurgeFailure() {
        return automaticPurgeFailure;
    }

    /**
     * Where a replay from {@code position} must start reading: the first entry of the oldest
     * transaction still open at {@code position} (its writes were not committed on a backend that
     * stopped there), else {@code position + 1}. Reads the last tail saved at or before {@code position} and
     * the entries between them (LogTail), not the log.
     */
    private long scanStart(long position) throws SQLException {
        awaitStored(position);
        return Math.min(loadTail(position, false).tail().oldestOpen(position + 1), position + 1);
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

    /** The transactions the saved tail and the entries after it leave open: their controller stopped. */
    private void rollBackAbandonedTransactions() throws SQLException {
        for (long tx : abandoned) {
            append(LogEntry.rollback(tx, RECOVERY_LOGIN).withOutcome(Outcome.SUCCESS));
        }
        abandoned.clear();
    }

    private interface PurgeBatch {
        int run() throws SQLException;
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

    private static void closeQuietly(LogJournal journal) {
        if (journal != null) {
            try {
                journal.close();
            } catch (IOException ignored) {
                // already failing; the first error is the one to report
            }
        }
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

    /** The queries on this log's entry tables (for the plan check in the tests). */
    LogEntryRows rows() {
        return rows;
    }

    public RecoveryLogConfig config() {
        return config;
    }

    /** Writes what is queued, then closes the store connections. */
    @Override
    public void close() throws SQLException {
        ScheduledExecutorService purge = automaticPurge.getAndSet(null);
        if (purge != null) {
            purge.shutdownNow();
        }
        try {
            writer.close();
        } finally {
            admin.close();
        }
    }
}
