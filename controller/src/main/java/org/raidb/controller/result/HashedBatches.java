package org.raidb.controller.result;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.sql.SQLException;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;

/**
 * One backend's rows in an error-checked read, read a batch at a time into a buffer of their own and
 * added to a running SHA-256 of every row so far: what the backends' answers are compared on while
 * they stream. Only the batch being voted on is held, so memory does not grow with the result.
 */
public final class HashedBatches implements AutoCloseable {
    /** Rows read at a time when skipping: a batch's worth, so that skipping holds no more than reading. */
    private static final int SKIP_BATCH_ROWS = 1_000;

    private final RowSource source;
    private final MessageDigest sha;
    private final PayloadWriter batch = new PayloadWriter().clear();
    private long rows;
    private int rowsInBatch;
    private boolean exhausted;

    public HashedBatches(RowSource source) {
        this.source = source;
        this.sha = ResultFingerprint.startedWith(source.columns());
    }

    /**
     * How far the rows have been read, as a comparable key: two backends that agree so far have equal
     * progress, since the hash covers the columns and every row read.
     */
    public record Progress(ByteBuffer sha256, long rows, boolean exhausted) {}

    /** Replaces the buffered batch with the next one, with the limits of {@link RowSource#writeBatch}. */
    public void readBatch(int maxRows, int maxBytes) throws SQLException {
        batch.clear();
        exhausted = source.writeBatch(batch, maxRows, maxBytes);
        rowsInBatch = batch.written(0, 4).getInt(0);
        sha.update(batch.written(4, batch.size() - 1)); // the rows: between the row count and the last-batch flag
        rows += rowsInBatch;
    }

    /**
     * Reads and hashes the next {@code count} rows without keeping them: a backend asked in the middle
     * of a read catches up with the rows the others already agreed on.
     */
    public void skip(long count) throws SQLException {
        long left = count;
        while (left > 0 && !exhausted) {
            readBatch((int) Math.min(left, SKIP_BATCH_ROWS), Integer.MAX_VALUE);
            left -= rowsInBatch;
        }
        batch.clear();
        rowsInBatch = 0;
    }

    public Progress progress() {
        try {
            return new Progress(ByteBuffer.wrap(((MessageDigest) sha.clone()).digest()), rows, exhausted);
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the platform's SHA-256 can be cloned", e);
        }
    }

    /** Writes the buffered batch as {@link RowSource#writeBatch} would have; returns whether it is the last. */
    public boolean copyBatchTo(PayloadWriter w) {
        w.writeAll(batch.written(0, batch.size()));
        return exhausted;
    }

    public int rowsInBatch() {
        return rowsInBatch;
    }

    public ColumnInfo[] columns() {
        return source.columns();
    }

    @Override
    public void close() {
        source.close();
    }
}
