package org.raidb.driver;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import org.raidb.driver.protocol.PayloadWriter;

/**
 * A SHA-256 over the rows of one result as the client received them, in order, each value in its wire
 * encoding: what a transaction read, so that replaying it on another controller can tell whether it would
 * read the same. Fed batch by batch as rows arrive; knows how many rows it covers and whether they were all
 * of the result ({@link #exhausted}), or the client stopped reading before the end ({@link #abandon}).
 */
final class RowsDigest {
    private final MessageDigest sha256;
    private long rows;
    private boolean exhausted;
    private boolean abandoned;

    RowsDigest() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** A digest of a result received whole (generated keys, several results of one statement). */
    static RowsDigest ofComplete(List<Object[]> rows) {
        RowsDigest d = new RowsDigest();
        d.add(rows, true);
        return d;
    }

    /** Rows received; {@code last}: no more will come. */
    void add(List<Object[]> batch, boolean last) {
        // A buffer per batch, not per digest: a transaction may keep thousands of digests.
        PayloadWriter scratch = batch.isEmpty() ? null : new PayloadWriter();
        for (Object[] row : batch) {
            scratch.clear();
            for (Object v : row) {
                scratch.writeValue(v);
            }
            sha256.update(scratch.written(0, scratch.size()));
            rows++;
        }
        if (last) {
            exhausted = true;
        }
    }

    /** The client closed the result before its end: the rows after those received were never seen. */
    void abandon() {
        abandoned = true;
    }

    /** The result is still being read: its cursor is open on the controller, and dies with it. */
    boolean open() {
        return !exhausted && !abandoned;
    }

    long rows() {
        return rows;
    }

    boolean exhausted() {
        return exhausted;
    }

    byte[] value() {
        try {
            return ((MessageDigest) sha256.clone()).digest();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 can be cloned", e);
        }
    }

    /**
     * Whether {@code replayed}, the same result read again, shows the client what it saw: the same rows in
     * the same order and, when the client read to the end, no more.
     */
    boolean sameAs(RowsDigest replayed) {
        return rows == replayed.rows
                && MessageDigest.isEqual(value(), replayed.value())
                && (!exhausted || replayed.exhausted);
    }

    /** What a mismatch says in the client's error message. */
    String describeDifference(RowsDigest replayed) {
        if (rows != replayed.rows || (exhausted && !replayed.exhausted)) {
            return "it read " + rows + " row(s) and would now read "
                    + (replayed.exhausted ? String.valueOf(replayed.rows) : "more than " + replayed.rows);
        }
        return "it read " + rows + " row(s) and would now read as many with different values";
    }
}
