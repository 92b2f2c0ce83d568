package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.Request;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.transaction.TransactionModes;
import org.raidb.driver.protocol.SqlStates;

/**
 * One snapshot per REPEATABLE READ or SERIALIZABLE transaction. Each backend takes a transaction's
 * snapshot at the first statement the transaction runs there, at its own moment: reads spread over
 * backends would see other transactions' commits appear in the middle of the transaction, which
 * one server never shows it. So all its reads go to the backend of its first read, preferably one
 * where it already runs (its snapshot is already taken there). If that backend leaves the array,
 * the snapshot is gone with it: the transaction fails with 40001 rather than read another one.
 *
 * <p>SERIALIZABLE transactions all read on the first backend able to serve them, see {@link #firstAble}.
 *
 * <p>READ COMMITTED takes a snapshot per statement: its reads keep spreading over the backends.
 */
final class SnapshotReads {
    private final BackendArray vdb;

    SnapshotReads(BackendArray vdb) {
        this.vdb = vdb;
    }

    /**
     * The backend for a read of {@code tx} (null in auto-commit mode): its snapshot's backend once it
     * has one, for its first read preferably one it already runs on, else the balancer's choice among
     * {@code candidates}.
     */
    DatabaseBackend choose(Transaction tx, Request request, List<DatabaseBackend> candidates)
            throws SQLException, NoBackendAvailableException {
        DatabaseBackend pinned = backend(tx);
        if (pinned != null) {
            try {
                return vdb.balancer().readBackend(request, List.of(pinned));
            } catch (NoBackendAvailableException e) {
                throw new SQLException(
                        "this " + levelName(tx) + " transaction reads from backend " + pinned.name()
                                + ", where its snapshot is, which cannot run this read (" + e.getMessage()
                                + "): read these tables in "
                                + "another transaction, or at READ COMMITTED",
                        SqlStates.FEATURE_NOT_SUPPORTED,
                        e);
            }
        }
        if (tx != null && tx.isolation() == Connection.TRANSACTION_SERIALIZABLE) {
            DatabaseBackend designated = firstAble(request, candidates);
            if (designated != null) {
                return designated;
            }
        }
        if (tx != null && !tx.isEmpty() && keepsOneSnapshot(tx)) {
            List<DatabaseBackend> joined = candidates.stream()
                    .filter(b -> tx.lane(b) != null && b.isEnabled())
                    .toList();
            if (!joined.isEmpty()) {
                try {
                    return vdb.balancer().readBackend(request, joined);
                } catch (NoBackendAvailableException none) {
                    // none of them holds the tables: the first read takes its snapshot elsewhere
                }
            }
        }
        return vdb.balancer().readBackend(request, candidates);
    }

    /**
     * The first backend, in the configured order, able to run the read. PostgreSQL finds the write skews
     * of SERIALIZABLE transactions (SSI) only among the reads made on its own server: two transactions
     * reading on different backends would each see no conflict and both commit. So all SERIALIZABLE
     * transactions read on the same backend, whose serialization failures roll back the victim on every
     * backend (OutcomeResolver, SerializableCommit).
     */
    private DatabaseBackend firstAble(Request request, List<DatabaseBackend> candidates) {
        for (DatabaseBackend b : candidates) {
            if (!b.isEnabled()) {
                continue;
            }
            try {
                return vdb.balancer().readBackend(request, List.of(b));
            } catch (NoBackendAvailableException cannot) {
                // it does not hold the tables, or cannot serve this session: the next one
            }
        }
        return null;
    }

    /** The backend every read of {@code tx} must go to, or null; 40001 if it has left the array. */
    DatabaseBackend backend(Transaction tx) throws SQLException {
        DatabaseBackend b = tx == null ? null : tx.snapshotBackend();
        if (b != null && (!b.isEnabled() || tx.lane(b) == null)) {
            throw new SQLException(
                    "backend " + b.name() + ", which held the snapshot of this " + levelName(tx)
                            + " transaction, has left the array: the snapshot is gone with it, so the transaction was rolled back;"
                            + " run the transaction again",
                    SqlStates.SERIALIZATION_FAILURE);
        }
        return b;
    }

    /** A statement of {@code tx} ran on {@code b}: if the transaction keeps one snapshot, it is there from now on. */
    void readFrom(Transaction tx, DatabaseBackend b) throws SQLException {
        if (tx != null && tx.snapshotBackend() == null && keepsOneSnapshot(tx)) {
            tx.snapshotBackend(b);
        }
    }

    private boolean keepsOneSnapshot(Transaction tx) throws SQLException {
        return keepsOneSnapshot(vdb, tx);
    }

    /** Whether {@code tx} runs at REPEATABLE READ or SERIALIZABLE, its own level or the backends' default. */
    static boolean keepsOneSnapshot(BackendArray vdb, Transaction tx) throws SQLException {
        // InnoDB's default is REPEATABLE READ; PostgreSQL's READ COMMITTED.
        int backendDefault = vdb.dialect() == SqlDialect.MARIADB
                ? Connection.TRANSACTION_REPEATABLE_READ
                : Connection.TRANSACTION_READ_COMMITTED;
        return TransactionModes.keepsOneSnapshot(tx.isolation(), backendDefault);
    }

    private static String levelName(Transaction tx) {
        return tx.isolation() == Connection.TRANSACTION_SERIALIZABLE ? "SERIALIZABLE" : "REPEATABLE READ";
    }
}
