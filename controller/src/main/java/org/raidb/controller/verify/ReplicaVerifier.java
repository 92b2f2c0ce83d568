package org.raidb.controller.verify;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.recovery.RecoveryTask;
import org.raidb.controller.recovery.WriteLog;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.driver.protocol.SqlStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies that the enabled backends of one virtual database hold the same data while clients keep writing: every
 * table is compared among the backends that hold it, by row count and an order-independent checksum that each
 * backend computes over one snapshot.
 *
 * <p>The snapshots are taken at one point of the write order: new writes are held at the recovery log's write gate
 * until no write is in flight (every backend has answered every write and ended every transaction logged so far,
 * so each holds the same committed writes), a REPEATABLE READ snapshot is fixed on every backend, and the writes
 * go on. Writes are held for that moment only; the checksums are computed afterwards, inside the snapshots.
 */
public final class ReplicaVerifier {
    private static final Logger log = LoggerFactory.getLogger(ReplicaVerifier.class);
    /**
     * How long new writes may wait for the writes in flight (transactions open) to end: they wait at the gate
     * meanwhile, so well within a client's patience.
     */
    static final long HOLD_TIMEOUT_MILLIS = 10_000;

    private final String vdb;
    private final List<DatabaseBackend> backends;
    private final WriteLog writeLog;
    private final ReentrantLock running = new ReentrantLock();
    private volatile VerifyReport last;

    /** @param backends the virtual database's backends (its live list: backends added online count) */
    public ReplicaVerifier(String vdb, List<DatabaseBackend> backends, WriteLog writeLog) {
        this.vdb = vdb;
        this.backends = backends;
        this.writeLog = writeLog;
    }

    /** The last verify's result, for the admin API and the metrics; empty before the first. */
    public Optional<VerifyReport> lastReport() {
        return Optional.ofNullable(last);
    }

    /**
     * Checks that a verify can run here and returns it, ready to run (the admin API runs it as an operation).
     *
     * @param repair make the holders outside a table's majority identical to it
     */
    public RecoveryTask<VerifyReport> verify(boolean repair) throws SQLException {
        return verify(repair, () -> {});
    }

    /**
     * As {@link #verify(boolean)}, running {@code afterSnapshots} once every snapshot is taken and writes go on,
     * before any checksum: tests disable a backend or drop a table there.
     */
    public RecoveryTask<VerifyReport> verify(boolean repair, Runnable afterSnapshots) throws SQLException {
        if (!writeLog.enabled()) {
            throw new SQLException(
                    "virtual database " + vdb + " runs without a recovery log, whose write gate verify holds for an"
                            + " instant to take every backend's snapshot at one point of the write order: enable"
                            + " <recoveryLog> in its configuration",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        if (backends.stream().noneMatch(DatabaseBackend::isEnabled)) {
            throw new SQLException(
                    "virtual database " + vdb + " has no enabled backend to verify", SqlStates.CONNECTION_FAILURE);
        }
        return progress -> run(repair, afterSnapshots, progress);
    }

    private VerifyReport run(boolean repair, Runnable afterSnapshots, Progress progress) throws SQLException {
        if (!running.tryLock()) {
            throw new SQLException(
                    "a verify of virtual database " + vdb + " is running already: wait for its result (show"
                            + " operations)",
                    SqlStates.OBJECT_IN_USE);
        }
        try {
            Instant started = Instant.now();
            long t0 = System.nanoTime();
            List<String> notes = new ArrayList<>();
            List<BackendSnapshot> snapshots = open(notes);
            long heldNanos;
            List<TableVerdict> verdicts;
            try {
                heldNanos = takeAtOnePoint(snapshots);
                afterSnapshots.run();
                verdicts = compare(snapshots, progress, notes);
            } finally {
                snapshots.forEach(BackendSnapshot::close);
            }
            if (repair) {
                verdicts = repair(verdicts, notes);
            }
            VerifyReport report = new VerifyReport(
                    vdb,
                    started.toString(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0),
                    TimeUnit.NANOSECONDS.toMillis(heldNanos),
                    snapshots.stream()
                            .map(BackendSnapshot::backend)
                            .filter(DatabaseBackend::isEnabled)
                            .map(DatabaseBackend::name)
                            .toList(),
                    repair,
                    verdicts,
                    notes);
            last = report;
            if (report.identical()) {
                log.info(report.summary());
            } else {
                log.warn(report.summary());
            }
            return report;
        } finally {
            running.unlock();
        }
    }

    /** A connection to each enabled backend, before writes are held: connecting takes time. */
    private List<BackendSnapshot> open(List<String> notes) throws SQLException {
        List<BackendSnapshot> snapshots = new ArrayList<>();
        try {
            for (DatabaseBackend b : backends) {
                if (!b.isEnabled()) {
                    continue;
                }
                try {
                    snapshots.add(BackendSnapshot.open(b));
                } catch (SQLException e) {
                    if (b.isEnabled()) {
                        throw e;
                    }
                    notes.add("backend " + b.name() + " was disabled as the verify began: left out");
                }
            }
        } catch (SQLException | RuntimeException e) {
            snapshots.forEach(BackendSnapshot::close);
            throw e;
        }
        if (snapshots.isEmpty()) {
            throw new SQLException(
                    "virtual database " + vdb + " has no enabled backend to verify", SqlStates.CONNECTION_FAILURE);
        }
        return snapshots;
    }

    /** Holds new writes until none is in flight, fixes every snapshot, lets the writes go. Returns the time held. */
    private long takeAtOnePoint(List<BackendSnapshot> snapshots) throws SQLException {
        long t0 = System.nanoTime();
        if (!writeLog.holdWrites(HOLD_TIMEOUT_MILLIS)) {
            throw new SQLException(
                    "verify of " + vdb + " could not find a point where no write was in flight: clients kept"
                            + " transactions open for " + HOLD_TIMEOUT_MILLIS / 1000 + " s; run it again when they"
                            + " hold none open that long",
                    SqlStates.LOCK_NOT_AVAILABLE);
        }
        try {
            for (BackendSnapshot s : snapshots) {
                try {
                    s.take();
                    if (!s.postgres()) {
                        // PostgreSQL reads its catalogue in the snapshot; MariaDB's is not versioned, so its list of
                        // tables is read while no DDL can run.
                        s.tables();
                    }
                } catch (SQLException e) {
                    throw new SQLException(
                            "verify could not take a snapshot on backend "
                                    + s.backend().name() + ": " + e.getMessage(),
                            e.getSQLState(),
                            e);
                }
            }
        } finally {
            writeLog.releaseWrites();
        }
        return System.nanoTime() - t0;
    }

    /** Every table among the backends that hold it; one thread per backend, each in its snapshot. */
    private List<TableVerdict> compare(List<BackendSnapshot> snapshots, Progress progress, List<String> notes)
            throws SQLException {
        Map<String, List<BackendSnapshot>> holders = new TreeMap<>();
        for (BackendSnapshot s : snapshots) {
            for (String table : s.tables()) {
                holders.computeIfAbsent(table, t -> new ArrayList<>());
            }
        }
        for (Map.Entry<String, List<BackendSnapshot>> e : holders.entrySet()) {
            for (BackendSnapshot s : snapshots) {
                if (s.backend().holdsTable(e.getKey())) {
                    e.getValue().add(s);
                }
            }
        }
        progress.total(holders.values().stream().mapToLong(List::size).sum());
        Map<String, TableComparison> comparisons = new TreeMap<>();
        holders.forEach((table, on) -> comparisons.put(
                table,
                new TableComparison(
                        table,
                        on.stream().allMatch(BackendSnapshot::postgres)
                                ? TableVerdict.POSTGRES_SQL
                                : TableVerdict.PORTABLE)));
        List<Thread> threads = new ArrayList<>();
        for (BackendSnapshot s : snapshots) {
            Thread t = new Thread(() -> checksums(s, holders, comparisons, progress), "raidb-verify-" + vdb);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("verify of " + vdb + " interrupted", SqlStates.QUERY_CANCELED, e);
            }
        }
        for (BackendSnapshot s : snapshots) {
            DatabaseBackend b = s.backend();
            if (!b.isEnabled()) {
                // Its snapshot counts no more: it may have been cut loose mid-read.
                comparisons.values().forEach(c -> c.forget(b.name()));
                notes.add("backend " + b.name() + " was disabled during the verify (" + b.disabledReason()
                        + "): left out");
            }
        }
        return comparisons.values().stream().map(TableComparison::verdict).toList();
    }

    private static void checksums(
            BackendSnapshot s,
            Map<String, List<BackendSnapshot>> holders,
            Map<String, TableComparison> comparisons,
            Progress progress) {
        String name = s.backend().name();
        String failure = null;
        for (Map.Entry<String, List<BackendSnapshot>> e : holders.entrySet()) {
            if (!e.getValue().contains(s)) {
                continue;
            }
            String table = e.getKey();
            TableComparison c = comparisons.get(table);
            synchronized (c) {
                if (failure != null) {
                    c.unreadable(name, failure);
                    continue;
                }
            }
            try {
                boolean listed = s.tables().contains(table);
                Optional<String> sum = listed ? s.checksum(table, method(c.method())) : Optional.empty();
                synchronized (c) {
                    if (sum.isPresent()) {
                        c.checksum(name, sum.get());
                    } else if (listed) {
                        c.dropped(name);
                    } else {
                        c.checksum(name, TableVerdict.MISSING);
                    }
                }
            } catch (SQLException | RuntimeException ex) {
                failure = ex.getMessage();
                synchronized (c) {
                    c.unreadable(name, failure);
                }
            }
            progress.advance(1);
        }
    }

    /** Each differing table with a majority: its other holders get the majority's copy, writes held. */
    private List<TableVerdict> repair(List<TableVerdict> verdicts, List<String> notes) throws SQLException {
        List<TableVerdict> out = new ArrayList<>();
        for (TableVerdict v : verdicts) {
            if (!v.differs() || v.reference() == null) {
                out.add(v);
                continue;
            }
            out.add(repair(v, notes));
        }
        return out;
    }

    private TableVerdict repair(TableVerdict v, List<String> notes) throws SQLException {
        DatabaseBackend reference = named(v.reference());
        List<String> repaired = new ArrayList<>();
        for (String wrongName : v.differing()) {
            DatabaseBackend wrong = named(wrongName);
            if (!reference.isEnabled() || !wrong.isEnabled()) {
                notes.add("table " + v.table() + " not repaired on " + wrongName + ": a backend was disabled");
                continue;
            }
            if (!writeLog.holdWrites(HOLD_TIMEOUT_MILLIS)) {
                throw new SQLException(
                        "repair of table " + v.table() + " on " + wrongName + " could not hold writes: clients kept"
                                + " transactions open for " + HOLD_TIMEOUT_MILLIS / 1000 + " s; run verify --repair"
                                + " again",
                        SqlStates.LOCK_NOT_AVAILABLE);
            }
            try {
                long rows = TableRepair.copy(v.table(), reference, wrong);
                String theirs = checksumNow(reference, v.table(), v.method());
                String mine = checksumNow(wrong, v.table(), v.method());
                if (!theirs.equals(mine)) {
                    throw new SQLException(
                            "repair of table " + v.table() + " on " + wrongName + " copied " + rows + " rows from "
                                    + reference.name() + " but the copies still differ (" + mine + " against "
                                    + theirs + "): restore " + wrongName + " from a dump",
                            SqlStates.DATA_CORRUPTED);
                }
                log.warn(
                        "verify --repair of {}: table {} on backend {} replaced by the {} rows of {}'s copy",
                        vdb,
                        v.table(),
                        wrongName,
                        rows,
                        reference.name());
                repaired.add(wrongName);
            } finally {
                writeLog.releaseWrites();
            }
        }
        return v.withRepaired(repaired, v.note());
    }

    private static String checksumNow(DatabaseBackend b, String table, String method) throws SQLException {
        try (BackendSnapshot s = BackendSnapshot.open(b)) {
            s.take();
            return s.checksum(table, method(method)).orElse(TableVerdict.MISSING);
        }
    }

    /** The method a verdict names ({@link TableVerdict#method}). */
    private static TableChecksum.Method method(String label) {
        return TableVerdict.POSTGRES_SQL.equals(label)
                ? TableChecksum.Method.POSTGRES_SQL
                : TableChecksum.Method.PORTABLE;
    }

    private DatabaseBackend named(String name) throws SQLException {
        for (DatabaseBackend b : backends) {
            if (b.name().equals(name)) {
                return b;
            }
        }
        throw new SQLException("backend " + name + " left virtual database " + vdb, SqlStates.UNDEFINED_OBJECT);
    }
}
