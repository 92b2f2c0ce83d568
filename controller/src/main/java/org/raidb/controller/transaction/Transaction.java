package org.raidb.controller.transaction;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.backend.DatabaseBackend;

/**
 * One client transaction as the controller runs it: a lane (connection and ordered work) per backend,
 * taken on first use. Lanes are dropped from other threads when their backend fails, hence the
 * concurrent map.
 */
public final class Transaction {
    private final long id;
    private final Instant start = Instant.now();
    private final Map<DatabaseBackend, BackendLane> lanes = new ConcurrentHashMap<>();
    private volatile boolean hasWritten;
    private final List<Map.Entry<DatabaseBackend, SchemaChange>> schemaChanges = new CopyOnWriteArrayList<>();
    /**
     * Set once the recovery log holds a statement of this transaction: its end must be logged too, and
     * this unit of the log's write gate closed when it has ended everywhere.
     */
    private volatile WriteUnit logUnit;
    /** Set when a statement failed: PostgreSQL refuses everything but a rollback now. */
    private volatile SQLException abortCause;
    /** The java.sql.Connection isolation level it runs at; -1: the backends' default. */
    private volatile int isolation;
    /**
     * The modes BEGIN ISOLATION LEVEL … or SET TRANSACTION gave it ("ISOLATION LEVEL SERIALIZABLE,
     * READ ONLY"), set on each backend as it joins; null when it has none of its own.
     */
    private volatile String modes;
    /** REPEATABLE READ and SERIALIZABLE: the one backend its reads go to, where its snapshot is. */
    private volatile DatabaseBackend snapshotBackend;

    public Transaction(long id) {
        this(id, -1, null);
    }

    /**
     * @param isolation the isolation level it runs at (-1: the backends' default)
     * @param modes its own transaction modes, set on each backend it joins, or null
     */
    public Transaction(long id, int isolation, String modes) {
        this.id = id;
        this.isolation = isolation;
        this.modes = modes;
    }

    public long id() {
        return id;
    }

    /** When the transaction started: PostgreSQL's now() is this instant for every statement of it. */
    public Instant start() {
        return start;
    }

    public BackendLane lane(DatabaseBackend backend) {
        return lanes.get(backend);
    }

    public void join(BackendLane lane) {
        lanes.put(lane.backend(), lane);
    }

    /** Drops a backend that failed or was disabled: its part of the transaction is gone with its connection. */
    public BackendLane forget(DatabaseBackend backend) {
        return lanes.remove(backend);
    }

    public Collection<BackendLane> lanes() {
        return lanes.values();
    }

    public boolean isEmpty() {
        return lanes.isEmpty();
    }

    public Set<String> backendNames() {
        return lanes.keySet().stream().map(DatabaseBackend::name).collect(Collectors.toUnmodifiableSet());
    }

    public boolean hasWritten() {
        return hasWritten;
    }

    /** The backends this transaction has written on (RAIDb-0 commits atomically across more than one). */
    public Set<DatabaseBackend> writtenBackends() {
        return lanes.values().stream()
                .filter(BackendLane::hasWritten)
                .map(BackendLane::backend)
                .collect(Collectors.toUnmodifiableSet());
    }

    /**
     * DDL of this transaction succeeded on a backend: its tables changed at once, so that the
     * transaction's next statements find a table it created. A rollback undoes the change.
     */
    public void schemaChanged(DatabaseBackend backend, SchemaChange change) {
        schemaChanges.add(Map.entry(backend, change));
    }

    /** The schema changes of this transaction, newest first, for a rollback to undo. */
    public List<Map.Entry<DatabaseBackend, SchemaChange>> schemaChangesToUndo() {
        List<Map.Entry<DatabaseBackend, SchemaChange>> out = new ArrayList<>(schemaChanges);
        java.util.Collections.reverse(out);
        return out;
    }

    public void markWritten() {
        hasWritten = true;
    }

    public boolean isLogged() {
        return logUnit != null;
    }

    public void markLogged(WriteUnit unit) {
        logUnit = unit;
    }

    /** The transaction has ended on every backend: a backend may join the array as far as it is concerned. */
    public void closeLogUnit() {
        WriteUnit unit = logUnit;
        if (unit != null) {
            unit.close();
        }
    }

    public SQLException abortCause() {
        return abortCause;
    }

    public synchronized void abort(SQLException cause) {
        if (abortCause == null) {
            abortCause = cause;
        }
    }

    public void clearAbort() {
        abortCause = null;
    }

    public int isolation() {
        return isolation;
    }

    public String modes() {
        return modes;
    }

    /** SET TRANSACTION ran in it: its isolation and modes from now on, for backends it joins later too. */
    public void modes(String transactionModes, int level) {
        modes = modes == null ? transactionModes : modes + ", " + transactionModes;
        if (level >= 0) {
            isolation = level;
        }
    }

    public DatabaseBackend snapshotBackend() {
        return snapshotBackend;
    }

    public void snapshotBackend(DatabaseBackend backend) {
        snapshotBackend = backend;
    }
}
