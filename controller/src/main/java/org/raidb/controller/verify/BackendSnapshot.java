package org.raidb.controller.verify;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.Optional;
import java.util.Set;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.driver.protocol.SqlStates;

/**
 * One backend's read-only REPEATABLE READ transaction, opened on a connection of its own (outside the pools, so
 * clients keep theirs) and fixed at the verify's point: every checksum read in it sees the backend as it was then,
 * whatever clients write afterwards.
 */
final class BackendSnapshot implements AutoCloseable {
    private final DatabaseBackend backend;
    private final Connection connection;
    private final boolean postgres;
    private Set<String> tables;

    private BackendSnapshot(DatabaseBackend backend, Connection connection, boolean postgres) {
        this.backend = backend;
        this.connection = connection;
        this.postgres = postgres;
    }

    /** Connects and prepares the transaction; nothing is fixed yet (cheap to do before writes are held). */
    static BackendSnapshot open(DatabaseBackend backend) throws SQLException {
        Connection c;
        try {
            c = backend.directConnection(null);
        } catch (SQLException e) {
            throw new SQLException(
                    "verify cannot connect to backend " + backend.name() + ": " + e.getMessage(),
                    SqlStates.CONNECTION_UNABLE,
                    e);
        }
        try {
            boolean postgres = TableChecksum.isPostgreSql(c);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setAutoCommit(false);
            c.setReadOnly(true);
            return new BackendSnapshot(backend, c, postgres);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Fixes the snapshot now. PostgreSQL takes it at the transaction's first statement; InnoDB at its first
     * consistent read, which {@code WITH CONSISTENT SNAPSHOT} makes at once.
     */
    void take() throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(postgres ? "SELECT 1" : "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
        }
    }

    DatabaseBackend backend() {
        return backend;
    }

    boolean postgres() {
        return postgres;
    }

    /** The base tables it has in its snapshot (the catalogue read in the transaction), lower-cased. */
    Set<String> tables() throws SQLException {
        if (tables == null) {
            tables = TableChecksum.tableNames(connection);
        }
        return tables;
    }

    /**
     * The table's checksum in the snapshot; empty when the table is gone (dropped after the snapshot was taken:
     * PostgreSQL looks tables up in the current catalogue). A failed statement does not end the transaction: on
     * PostgreSQL it runs under a savepoint.
     */
    Optional<String> checksum(String table, TableChecksum.Method method) throws SQLException {
        Savepoint savepoint = postgres ? connection.setSavepoint() : null;
        try {
            Optional<String> quoted = TableChecksum.quotedName(connection, table);
            Optional<String> sum = quoted.isEmpty()
                    ? Optional.empty()
                    : Optional.of(TableChecksum.checksum(connection, quoted.get(), method));
            if (savepoint != null) {
                connection.releaseSavepoint(savepoint);
            }
            return sum;
        } catch (SQLException e) {
            if (savepoint != null && !connection.isClosed()) {
                try {
                    connection.rollback(savepoint);
                } catch (SQLException ignored) {
                    // the connection is gone; the caller reports the first failure
                }
            }
            if (SqlStates.UNDEFINED_TABLE.equals(e.getSQLState()) || "42S02".equals(e.getSQLState())) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        try (connection) {
            connection.rollback();
        } catch (SQLException ignored) {
            // read-only: nothing to undo; a connection already broken is closed all the same
        }
    }
}
