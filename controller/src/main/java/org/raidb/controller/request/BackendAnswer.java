package org.raidb.controller.request;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.result.HashedBatches;
import org.raidb.controller.result.ResultFingerprint;
import org.raidb.controller.result.RowSource;
import org.raidb.driver.protocol.SqlStates;

/**
 * One backend's answer to an error-checked read, as far as it has been read: a single result set
 * streams and is compared batch by batch; anything else (several results, update counts) is small and
 * compared whole; an SQL error is an answer like any other. A backend that failed gave no answer.
 */
final class BackendAnswer implements AutoCloseable {
    private final DatabaseBackend backend;
    private HashedBatches rows;
    private StatementResult whole;
    private SQLException error;
    private SQLException failure;
    private SQLException busy;

    private BackendAnswer(DatabaseBackend backend) {
        this.backend = backend;
    }

    static BackendAnswer of(DatabaseBackend backend, StatementResult result) {
        BackendAnswer a = new BackendAnswer(backend);
        RowSource single = result.generatedKeys() == null ? result.singleRows() : null;
        if (single != null) {
            a.rows = new HashedBatches(single);
        } else {
            a.whole = result;
        }
        return a;
    }

    static BackendAnswer of(DatabaseBackend backend, SQLException e) {
        BackendAnswer a = new BackendAnswer(backend);
        a.failedWith(e);
        return a;
    }

    private void failedWith(SQLException e) {
        if (SqlStates.TOO_MANY_CONNECTIONS.equals(e.getSQLState())) {
            // No connection to be had says nothing about the data: no answer, and the backend stays enabled.
            // Streamed error-checked reads hold their connections until the client has read the rows, which
            // makes this likelier than for ordinary reads.
            busy = e;
        } else if (FailureClassifier.isBackendFailure(e)) {
            failure = e;
        } else {
            error = e;
        }
        close(); // the rows read so far are no answer any more
        rows = null;
    }

    /** Skips the rows already agreed on, then reads the batch being voted on. */
    void readBatch(long skip, int maxRows, int maxBytes) {
        if (rows == null) {
            return;
        }
        try {
            rows.skip(skip);
            rows.readBatch(maxRows, maxBytes);
        } catch (SQLException e) {
            failedWith(e);
        }
    }

    DatabaseBackend backend() {
        return backend;
    }

    /** The backend failed (connection lost, timeout): it must be disabled, its answer does not count. */
    SQLException failure() {
        return failure;
    }

    /** The backend had no free connection: it gives no answer this time, and stays enabled. */
    SQLException busy() {
        return busy;
    }

    /** What this answer is compared on. */
    Object fingerprint() {
        if (error != null) {
            return ByteBuffer.wrap(("error " + error.getSQLState()).getBytes(StandardCharsets.UTF_8));
        }
        return rows != null ? rows.progress() : ResultFingerprint.of(whole.results());
    }

    /** The streamed rows, or null when the answer is an error or a whole result. */
    HashedBatches rows() {
        return rows;
    }

    /** The answer, when it does not stream: the whole result, or the error thrown. */
    StatementResult wholeResult() throws SQLException {
        if (error != null) {
            throw error;
        }
        StatementResult r = whole;
        whole = null; // the client's now: not discarded on close
        return r;
    }

    SQLException error() {
        return error;
    }

    @Override
    public void close() {
        if (rows != null) {
            rows.close();
        }
        if (whole != null) {
            whole.discard();
            whole = null;
        }
    }
}
