package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.util.List;

/**
 * The EXECUTE frame, one statement to run:
 *
 * <pre>
 * string sql | int32 paramCount (-1: plain Statement) | paramCount x value | byte mode | int32 flags |
 * stringList keyColumns | int32 fetchSize | int64 maxRows | int32 queryTimeoutSeconds | [requestTag]
 * </pre>
 *
 * @param parameters the bound values, or null for a plain Statement
 * @param mode {@link Protocol#MODE_QUERY}, {@link Protocol#MODE_UPDATE} or {@link Protocol#MODE_ANY}
 * @param flags {@link Protocol#FLAG_RETURN_GENERATED_KEYS}, {@link Protocol#FLAG_CALL}, {@link Protocol#FLAG_NO_ESCAPE_PROCESSING}
 * @param keyColumns the generated key columns asked for by name, or null
 * @param fetchSize rows per batch, 0 for {@link Protocol#DEFAULT_FETCH_SIZE}
 * @param maxRows 0 for no limit
 * @param queryTimeoutSeconds 0 for none
 * @param tag the request id, {@link RequestTag#NONE} when it has none
 */
public record ExecuteFrame(
        String sql,
        List<Object> parameters,
        byte mode,
        int flags,
        List<String> keyColumns,
        int fetchSize,
        long maxRows,
        int queryTimeoutSeconds,
        RequestTag tag) {

    /** A frame without a request id. */
    public ExecuteFrame(
            String sql,
            List<Object> parameters,
            byte mode,
            int flags,
            List<String> keyColumns,
            int fetchSize,
            long maxRows,
            int queryTimeoutSeconds) {
        this(sql, parameters, mode, flags, keyColumns, fetchSize, maxRows, queryTimeoutSeconds, RequestTag.NONE);
    }

    public ExecuteFrame withTag(RequestTag newTag) {
        return new ExecuteFrame(
                sql, parameters, mode, flags, keyColumns, fetchSize, maxRows, queryTimeoutSeconds, newTag);
    }

    public void write(PayloadWriter w) {
        w.begin(Protocol.EXECUTE).writeString(sql);
        ParameterList.write(w, parameters);
        w.writeByte(mode).writeInt(flags).writeStringList(keyColumns);
        w.writeInt(fetchSize).writeLong(maxRows).writeInt(queryTimeoutSeconds);
        tag.write(w);
    }

    /** Reads the payload; more parameters than a backend binds is refused with 54000 ({@link ParameterList}). */
    public static ExecuteFrame read(PayloadReader r) throws ProtocolException, SQLException {
        String sql = r.readString();
        List<Object> parameters = ParameterList.read(r);
        byte mode = r.readByte();
        int flags = r.readInt();
        List<String> keyColumns = r.readStringList();
        int fetchSize = r.readInt();
        long maxRows = r.readLong();
        int queryTimeoutSeconds = r.readInt();
        return new ExecuteFrame(
                sql, parameters, mode, flags, keyColumns, fetchSize, maxRows, queryTimeoutSeconds, RequestTag.read(r));
    }

    public boolean returnGeneratedKeys() {
        return (flags & Protocol.FLAG_RETURN_GENERATED_KEYS) != 0;
    }

    /** Sent through a CallableStatement: run as a call, on every backend in the write order. */
    public boolean call() {
        return (flags & Protocol.FLAG_CALL) != 0;
    }

    /** False when the client turned escape processing off and the text keeps its JDBC escapes. */
    public boolean escapeProcessing() {
        return (flags & Protocol.FLAG_NO_ESCAPE_PROCESSING) == 0;
    }

    /** The fetch size the client asked for, or the protocol's default. */
    public int effectiveFetchSize() {
        return fetchSize > 0 ? fetchSize : Protocol.DEFAULT_FETCH_SIZE;
    }
}
