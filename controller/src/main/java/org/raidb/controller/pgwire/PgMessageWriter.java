package org.raidb.controller.pgwire;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Builds backend messages in one growable buffer and writes them out together: a whole answer (its rows
 * up to {@link #FLUSH_BYTES} at a time, then CommandComplete and ReadyForQuery) leaves in few packets. Not
 * thread-safe: one writer per connection.
 */
final class PgMessageWriter {
    /** Rows are sent once this much is buffered, so that a large result never sits whole in memory. */
    static final int FLUSH_BYTES = 64 * 1024;

    private final OutputStream out;
    private byte[] buf = new byte[8192];
    private int pos;
    private int messageStart = -1;

    PgMessageWriter(OutputStream out) {
        this.out = out;
    }

    // ---- framing

    PgMessageWriter begin(char type) {
        ensure(5);
        buf[pos++] = (byte) type;
        messageStart = pos;
        pos += 4;
        return this;
    }

    PgMessageWriter end() {
        int length = pos - messageStart;
        putInt(messageStart, length);
        messageStart = -1;
        return this;
    }

    /** Writes what is buffered to the client. */
    void flush() throws IOException {
        out.write(buf, 0, pos);
        out.flush();
        pos = 0;
        if (buf.length > 1 << 20) {
            buf = new byte[8192]; // one large row must not keep a large buffer alive
        }
    }

    /** Flushes once enough is buffered (between rows). */
    void flushIfFull() throws IOException {
        if (pos >= FLUSH_BYTES) {
            flush();
        }
    }

    int buffered() {
        return pos;
    }

    // ---- fields

    PgMessageWriter int8(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
        return this;
    }

    PgMessageWriter int16(int v) {
        ensure(2);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    PgMessageWriter int32(int v) {
        ensure(4);
        putInt(pos, v);
        pos += 4;
        return this;
    }

    PgMessageWriter cstring(String s) {
        bytes(s.getBytes(StandardCharsets.UTF_8));
        return int8(0);
    }

    PgMessageWriter bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
        return this;
    }

    private void putInt(int at, int v) {
        buf[at] = (byte) (v >>> 24);
        buf[at + 1] = (byte) (v >>> 16);
        buf[at + 2] = (byte) (v >>> 8);
        buf[at + 3] = (byte) v;
    }

    private void ensure(int more) {
        if (pos + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
        }
    }

    // ---- backend messages

    void authentication(int code, byte[] data) {
        begin('R').int32(code).bytes(data).end();
    }

    void authenticationOk() {
        authentication(0, new byte[0]);
    }

    void parameterStatus(String name, String value) {
        begin('S').cstring(name).cstring(value).end();
    }

    void backendKeyData(int processId, int secret) {
        begin('K').int32(processId).int32(secret).end();
    }

    void readyForQuery(char status) {
        begin('Z').int8(status).end();
    }

    void commandComplete(String tag) {
        begin('C').cstring(tag).end();
    }

    /** CopyInResponse (G) or CopyOutResponse (H): the text format, for every column. */
    void copyResponse(char type, int columns) {
        begin(type).int8(0).int16(columns);
        for (int i = 0; i < columns; i++) {
            int16(0);
        }
        end();
    }

    void copyData(byte[] data) {
        begin('d').bytes(data).end();
    }

    void copyDone() {
        begin('c').end();
    }

    void emptyQueryResponse() {
        begin('I').end();
    }

    void parseComplete() {
        begin('1').end();
    }

    void bindComplete() {
        begin('2').end();
    }

    void closeComplete() {
        begin('3').end();
    }

    void noData() {
        begin('n').end();
    }

    void portalSuspended() {
        begin('s').end();
    }

    void parameterDescription(int[] oids) {
        begin('t').int16(oids.length);
        for (int oid : oids) {
            int32(oid);
        }
        end();
    }

    void rowDescription(List<PgField> fields) {
        begin('T').int16(fields.size());
        for (PgField f : fields) {
            cstring(f.name())
                    .int32(0)
                    .int16(0)
                    .int32(f.type().oid())
                    .int16(f.type().size())
                    .int32(f.typmod())
                    .int16(f.format());
        }
        end();
    }

    /** One row; a null value is SQL NULL. */
    void dataRow(byte[][] values) {
        begin('D').int16(values.length);
        for (byte[] v : values) {
            if (v == null) {
                int32(-1);
            } else {
                int32(v.length).bytes(v);
            }
        }
        end();
    }

    /** An ErrorResponse with the fields given, in order (field code, value); null values are left out. */
    void error(java.util.Map<Character, String> fields) {
        begin('E');
        for (java.util.Map.Entry<Character, String> f : fields.entrySet()) {
            if (f.getValue() != null) {
                int8(f.getKey()).cstring(f.getValue());
            }
        }
        int8(0).end();
    }

    /** ErrorResponse ('E') or NoticeResponse ('N'): severity, SQLSTATE and message, the fields every client reads. */
    void notice(char type, String severity, String sqlState, String message) {
        begin(type);
        int8('S').cstring(severity);
        int8('V').cstring(severity);
        int8('C').cstring(sqlState);
        int8('M').cstring(message);
        int8(0).end();
    }
}
