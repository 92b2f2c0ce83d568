package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The BATCH frame:
 *
 * <pre>
 * byte form | int32 queryTimeoutSeconds | int32 flags | stringList keyColumns | then
 *   form 0 (Statement.addBatch):         stringList statements
 *   form 1 (PreparedStatement.addBatch): string sql | int32 rowCount | rowCount x (int32 n | n x value)
 * then [requestTag]
 * </pre>
 *
 * @param form {@link #STATEMENTS} or {@link #PREPARED}
 * @param flags those of EXECUTE ({@link Protocol#FLAG_RETURN_GENERATED_KEYS}, {@link Protocol#FLAG_NO_ESCAPE_PROCESSING})
 * @param keyColumns the generated key columns asked for by name, or null
 * @param statements form 0: the texts (null when the frame said so)
 * @param sql form 1: the prepared statement
 * @param rows form 1: its rows of parameter values
 * @param tag the request id, {@link RequestTag#NONE} when it has none
 */
public record BatchFrame(
        byte form,
        int queryTimeoutSeconds,
        int flags,
        List<String> keyColumns,
        List<String> statements,
        String sql,
        List<List<Object>> rows,
        RequestTag tag) {

    public static final byte STATEMENTS = 0;
    public static final byte PREPARED = 1;

    /** A batch of texts (Statement.addBatch). */
    public static BatchFrame ofStatements(int queryTimeoutSeconds, int flags, List<String> statements) {
        return new BatchFrame(STATEMENTS, queryTimeoutSeconds, flags, null, statements, null, null, RequestTag.NONE);
    }

    /** A prepared statement with one row of parameter values per addBatch(). */
    public static BatchFrame ofPrepared(
            int queryTimeoutSeconds, int flags, List<String> keyColumns, String sql, List<List<Object>> rows) {
        return new BatchFrame(PREPARED, queryTimeoutSeconds, flags, keyColumns, null, sql, rows, RequestTag.NONE);
    }

    public BatchFrame withTag(RequestTag newTag) {
        return new BatchFrame(form, queryTimeoutSeconds, flags, keyColumns, statements, sql, rows, newTag);
    }

    public void write(PayloadWriter w) {
        w.begin(Protocol.BATCH)
                .writeByte(form)
                .writeInt(queryTimeoutSeconds)
                .writeInt(flags)
                .writeStringList(keyColumns);
        if (form == STATEMENTS) {
            w.writeStringList(statements);
        } else {
            w.writeString(sql).writeInt(rows.size());
            for (List<Object> row : rows) {
                ParameterList.write(w, row);
            }
        }
        tag.write(w);
    }

    /**
     * Reads the payload. Counts are checked against the bytes the frame holds; a row of more values than
     * a backend binds is refused with 54000 ({@link ParameterList}); an unknown form, or a prepared row
     * without a parameter list, is a protocol violation.
     */
    public static BatchFrame read(PayloadReader r) throws ProtocolException, SQLException {
        byte form = r.readByte();
        int timeout = r.readInt();
        int flags = r.readInt();
        List<String> keyColumns = r.readStringList();
        if (form == STATEMENTS) {
            List<String> statements = r.readStringList();
            return new BatchFrame(form, timeout, flags, keyColumns, statements, null, null, RequestTag.read(r));
        }
        if (form != PREPARED) {
            throw new ProtocolException("unknown batch form " + form);
        }
        String sql = r.readString();
        int n = r.readCount(4);
        List<List<Object>> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            List<Object> row = ParameterList.read(r);
            if (row == null) {
                throw new ProtocolException("row " + (i + 1) + " of a prepared batch has no parameter list");
            }
            rows.add(row);
        }
        return new BatchFrame(form, timeout, flags, keyColumns, null, sql, rows, RequestTag.read(r));
    }

    /** Form 1: the keys every row generated are wanted. */
    public boolean returnGeneratedKeys() {
        return (flags & Protocol.FLAG_RETURN_GENERATED_KEYS) != 0;
    }

    /** False when some text was added with escape processing off: the texts keep their JDBC escapes. */
    public boolean escapeProcessing() {
        return (flags & Protocol.FLAG_NO_ESCAPE_PROCESSING) == 0;
    }
}
