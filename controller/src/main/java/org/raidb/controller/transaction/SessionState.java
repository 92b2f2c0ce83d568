package org.raidb.controller.transaction;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.controller.advisory.SessionLocks;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.driver.protocol.SqlStates;

/**
 * What the controller remembers of one client connection between requests: who it is, its
 * transaction, and the settings every backend connection it uses must carry.
 */
public final class SessionState {
    private final long id;
    private final TransactionIds transactionIds;
    private final String virtualUser;
    private final RunningStatements running = new RunningStatements();
    private final SessionLocks advisoryLocks = new SessionLocks();
    /** Per backend, the last auto-commit write of this session: reads wait for it (read your writes). */
    private final Map<DatabaseBackend, CompletableFuture<?>> lastWrites = new ConcurrentHashMap<>();
    /** SET statements the client ran, replayed on every backend connection the session borrows. */
    private final List<String> settings = new ArrayList<>();

    private boolean autoCommit = true;
    /** A BEGIN sent as SQL in auto-commit mode opens a transaction that COMMIT/ROLLBACK ends. */
    private boolean explicitTransaction;
    /** The modes of that BEGIN (BEGIN ISOLATION LEVEL …), for the transaction it opens; null if none. */
    private String explicitModes;

    private Transaction transaction;
    /**
     * The age the scheduler gives this session's transaction in a deadlock; 0 until its first write
     * takes one. A deadlock or serialization victim's stamp stays for the session's next transaction
     * (the retry), which therefore ages instead of starting young again and losing again.
     */
    private long priorityStamp;

    private int isolation = -1; // -1: the backend's default
    private boolean readOnly;
    /** The client's ApplicationName, given to every backend connection the session uses; null for none. */
    private volatile String applicationName;
    /** The id the driver gave its logical connection (HELLO), the same on every controller it fails over to. */
    private volatile String clientSessionId;
    /** The id of the request being served (its tag), 0 when it has none. */
    private volatile long requestId;

    /** @param transactionIds those of the session's virtual database */
    public SessionState(long id, String virtualUser, TransactionIds transactionIds) {
        this.id = id;
        this.virtualUser = virtualUser;
        this.transactionIds = transactionIds;
    }

    /** A fresh id for a transaction or an auto-commit statement: they share one id space for conflict classes. */
    public long nextTransactionId() {
        return transactionIds.next();
    }

    /** The stamp of the session's current transaction: the one kept from a victim, else {@code owner}'s id. */
    public long priorityStamp(long owner) {
        if (priorityStamp == 0) {
            priorityStamp = owner;
        }
        return priorityStamp;
    }

    /**
     * The session's transaction or auto-commit write ended with this SQLState (null: it committed or
     * was rolled back by the client): a deadlock or serialization victim keeps its stamp for the retry;
     * any other end gives it up, and the next transaction gets a fresh one.
     */
    public void transactionEnded(String sqlState) {
        if (!SqlStates.SERIALIZATION_FAILURE.equals(sqlState) && !SqlStates.DEADLOCK_DETECTED.equals(sqlState)) {
            priorityStamp = 0;
        }
    }

    public long id() {
        return id;
    }

    public String virtualUser() {
        return virtualUser;
    }

    public RunningStatements running() {
        return running;
    }

    /** What the session holds on the lock backend (advisory locks). */
    public SessionLocks advisoryLocks() {
        return advisoryLocks;
    }

    /** Whether statements run in a transaction that the client will end with commit or rollback. */
    public boolean inTransactionMode() {
        return !autoCommit || explicitTransaction;
    }

    /** The current transaction, started on demand when the session is in transaction mode; null in auto-commit. */
    public Transaction transaction() {
        if (transaction == null && inTransactionMode()) {
            int level = TransactionModes.isolationOf(explicitModes);
            transaction = new Transaction(nextTransactionId(), level >= 0 ? level : defaultIsolation(), explicitModes);
        }
        return transaction;
    }

    /** The transaction if one has started, without starting one. */
    public Transaction currentTransaction() {
        return transaction;
    }

    /**
     * No transaction is open: everything the session did so far is committed or rolled back. What a request
     * answered at such a moment is final, so it can be remembered for a client that sends it again.
     */
    public boolean betweenTransactions() {
        return transaction == null && !explicitTransaction;
    }

    public void endTransaction() {
        transaction = null;
        explicitTransaction = false;
        explicitModes = null;
    }

    public boolean autoCommit() {
        return autoCommit;
    }

    public void autoCommit(boolean on) {
        autoCommit = on;
    }

    /**
     * The client sent BEGIN (or START TRANSACTION): the session is in a transaction it will end itself.
     *
     * @param modes the BEGIN's transaction modes ({@link TransactionModes#ofBegin}), or null
     */
    public void beginExplicitTransaction(String modes) {
        explicitTransaction = true;
        explicitModes = modes;
    }

    /** The isolation level set through JDBC, applied to each borrowed connection; -1: the backends' default. */
    public int isolation() {
        return isolation;
    }

    /**
     * The isolation level through JDBC. It replaces a default set earlier by SQL, as on a single
     * server, where the later of the two wins: that SET is no longer replayed.
     */
    public void isolation(int level) {
        isolation = level;
        settings.removeIf(setting -> TransactionModes.sessionDefault(setting) != TransactionModes.NOT_ISOLATION);
    }

    /**
     * The isolation level of the session's next transactions: the last default set by SQL (SET SESSION
     * CHARACTERISTICS, default_transaction_isolation) or else through JDBC; -1: the backends' default.
     */
    public int defaultIsolation() {
        for (int i = settings.size() - 1; i >= 0; i--) {
            int level = TransactionModes.sessionDefault(settings.get(i));
            if (level != TransactionModes.NOT_ISOLATION) {
                return level;
            }
        }
        return isolation;
    }

    public boolean readOnly() {
        return readOnly;
    }

    public void readOnly(boolean ro) {
        readOnly = ro;
    }

    public Map<DatabaseBackend, CompletableFuture<?>> lastWrites() {
        return lastWrites;
    }

    public List<String> settings() {
        return settings;
    }

    public String applicationName() {
        return applicationName;
    }

    /** Null or empty: the backend connections keep the name their pool gives them. */
    public void applicationName(String name) {
        applicationName = name == null || name.isEmpty() ? null : name;
    }

    /**
     * The id the driver made for its logical connection and sends in HELLO, kept across its failovers from
     * one controller to another; null for a driver that predates failover. With {@link #requestId()} it names
     * a request wherever it runs (see {@code RecentOutcomes}).
     */
    public String clientSessionId() {
        return clientSessionId;
    }

    public void clientSessionId(String id) {
        clientSessionId = id;
    }

    /**
     * The id of the request the session is serving (a counter of the client session, sent at the end of
     * EXECUTE, BATCH and TRANSACTION), set before the request is handed on; 0 when it has none.
     */
    public long requestId() {
        return requestId;
    }

    public void requestId(long id) {
        requestId = id;
    }

    /** Gives a freshly borrowed backend connection this session's isolation, read-only flag and SET values. */
    public void prepare(Connection c) throws java.sql.SQLException {
        if (isolation >= 0) {
            c.setTransactionIsolation(isolation);
        }
        if (readOnly) {
            c.setReadOnly(true);
        }
        if (!settings.isEmpty()) {
            try (java.sql.Statement st = c.createStatement()) {
                for (String s : settings) {
                    st.execute(s);
                }
            }
        }
    }
}
