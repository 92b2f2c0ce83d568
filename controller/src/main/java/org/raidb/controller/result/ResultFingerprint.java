package org.raidb.controller.result;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;

/**
 * A SHA-256 of what a client would receive for a statement: column labels and types, then every row
 * in order, each value as the wire protocol encodes it (so two backends agree exactly when the client
 * could not tell their answers apart), and update counts. Error-checking levels compare these: a
 * single result set as it streams ({@link #startedWith}, fed by {@link HashedBatches}), anything else
 * (several results, update counts) whole ({@link #of}).
 */
public final class ResultFingerprint {
    private ResultFingerprint() {}

    /**
     * A SHA-256 that has seen a result set's column labels and types, to which the rows are added as
     * they are read: the rows' wire encoding only, not the batches' headers, so that the hash does not
     * depend on where batches start and end.
     */
    public static MessageDigest startedWith(ColumnInfo[] columns) {
        MessageDigest sha = sha256();
        PayloadWriter w = new PayloadWriter().clear();
        writeColumns(w, columns);
        sha.update(w.written(0, w.size()));
        return sha;
    }

    /** The fingerprint of a statement's materialized results (result sets and update counts), as a comparable key. */
    public static ByteBuffer of(List<Result> results) {
        MessageDigest sha = sha256();
        try (DigestOutputStream out = new DigestOutputStream(OutputStream.nullOutputStream(), sha)) {
            PayloadWriter w = new PayloadWriter();
            for (Result result : results) {
                w.begin((byte) 0);
                result.map(
                        count -> w.writeString(String.valueOf(count)),
                        rows -> rows instanceof MaterializedRows whole
                                ? writeRows(w, whole, out)
                                : w.writeString(String.valueOf(rows)));
                w.send(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a null stream does not fail
        }
        return ByteBuffer.wrap(sha.digest());
    }

    /** The rows after the column header: one message per row, so that the hash matches the wire's. */
    private static PayloadWriter writeRows(PayloadWriter w, MaterializedRows rows, OutputStream out) {
        try {
            writeColumns(w, rows.columns());
            for (Object[] row : rows.rows()) {
                w.send(out);
                w.begin((byte) 1);
                for (Object v : row) {
                    w.writeValue(v);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w;
    }

    private static void writeColumns(PayloadWriter w, ColumnInfo[] columns) {
        for (ColumnInfo c : columns) {
            w.writeString(c.label()).writeInt(c.jdbcType());
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
