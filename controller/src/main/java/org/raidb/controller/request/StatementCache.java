package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.raidb.driver.protocol.ColumnInfo;

/**
 * Backend PreparedStatements kept open on each physical backend connection and reused by whichever
 * session borrows that connection next, with the column descriptions of their last result.
 *
 * <p>Why: a client's prepared statement arrives as SQL text on every execution. Preparing it anew
 * each time costs a driver statement, a pool proxy and a lock per request, and reading the result's
 * metadata a {@code ColumnInfo} per column (the largest allocations of the overhead benchmark's
 * profile, docs/benchmarks.md). The backend driver's own cache (pgjdbc's server-side statements)
 * already avoids the re-parse; this avoids the objects.
 *
 * <p>Statements are prepared on the physical connection, not on the pool's proxy, so that returning
 * the connection to the pool does not close them (and are used in auto-commit mode only, since the
 * pool does not see them write); a connection the pool retires closes them with
 * it, and its entry is swept when a new connection is first seen. A connection is used by one thread
 * at a time (the borrower), so an entry needs no more than an uncontended lock.
 *
 * <p>One cache per virtual database, with its own epoch: a DDL in one virtual database says nothing
 * about another's results. Its entries are per physical backend connection, so each backend's
 * statements stay with that backend's connections.
 *
 * <p>Column descriptions are reused only while nothing can have changed them: every DDL or SET
 * through the controller starts a new {@link #schemaChanged() epoch}, a connection lent to a
 * session with its own settings is {@link #forget forgotten} on borrow and return, and a description
 * is reused only if the result's column count, labels, types, precisions and scales still match.
 */
final class StatementCache {
    /** Statements kept per connection, least recently used dropped first. */
    static final int PER_CONNECTION = 32;
    /**
     * Longer texts are prepared each time: each connection keeps its texts as keys, and a client sending
     * large distinct statements must not make every pooled connection hold copies of them.
     */
    static final int MAX_TEXT = 8_192;

    private final Map<Connection, Statements> byConnection = new ConcurrentHashMap<>();
    private final AtomicLong epoch = new AtomicLong();

    /** One reusable statement and what its last result looked like. */
    final class Entry {
        final PreparedStatement statement;
        private ColumnInfo[] columns;
        private long columnsEpoch = -1;

        Entry(PreparedStatement statement) {
            this.statement = statement;
        }

        /** The description of the last result, if no DDL or SET ran since; null otherwise. */
        ColumnInfo[] columns() {
            return columnsEpoch == epoch.get() ? columns : null;
        }

        /** Remembers a description read from a result whose statement started in {@code epoch}. */
        void columns(ColumnInfo[] described, long epoch) {
            columns = described;
            columnsEpoch = epoch;
        }
    }

    /** The statements of one physical connection. */
    private static final class Statements extends LinkedHashMap<String, Entry> {
        Statements() {
            super(16, 0.75f, true);
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            if (size() <= PER_CONNECTION) {
                return false;
            }
            closeQuietly(eldest.getValue().statement);
            return true;
        }
    }

    /** The statement for {@code sql} on this pooled connection, prepared on first use. */
    Entry statement(Connection pooled, String sql) throws SQLException {
        Connection physical = pooled.unwrap(Connection.class);
        Statements statements = byConnection.get(physical);
        if (statements == null) {
            sweepClosed();
            statements = byConnection.computeIfAbsent(physical, k -> new Statements());
        }
        synchronized (statements) {
            Entry e = statements.get(sql);
            if (e == null || e.statement.isClosed()) {
                e = new Entry(physical.prepareStatement(sql));
                statements.put(sql, e);
            }
            return e;
        }
    }

    /** Drops (and closes) what is kept for this connection: its session settings differ from the defaults. */
    void forget(Connection pooled) {
        Statements statements;
        try {
            statements = byConnection.remove(pooled.unwrap(Connection.class));
        } catch (SQLException e) {
            return; // not a wrapper of anything: nothing was kept for it
        }
        if (statements != null) {
            synchronized (statements) {
                statements.values().forEach(e -> closeQuietly(e.statement));
                statements.clear();
            }
        }
    }

    /** A DDL statement or a SET ran: result descriptions cached so far may be stale. */
    void schemaChanged() {
        epoch.incrementAndGet();
    }

    /** The current epoch: taken before a statement runs, so that a DDL finishing meanwhile voids its description. */
    long epoch() {
        return epoch.get();
    }

    /** Statements kept right now, all connections of this virtual database together (tests). */
    int size() {
        int n = 0;
        for (Statements s : byConnection.values()) {
            synchronized (s) {
                n += s.size();
            }
        }
        return n;
    }

    /** Entries of connections the pool has closed since: their statements died with them. */
    private void sweepClosed() {
        byConnection.keySet().removeIf(c -> {
            try {
                return c.isClosed();
            } catch (SQLException e) {
                return true;
            }
        });
    }

    private static void closeQuietly(PreparedStatement ps) {
        try {
            ps.close();
        } catch (SQLException ignored) {
            // its connection is gone: so is the statement
        }
    }
}
