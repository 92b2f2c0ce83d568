package org.raidb.controller.pgwire;

import java.nio.charset.StandardCharsets;

/**
 * One frontend message's body, read field by field. A field that runs past the body is a protocol
 * violation, never an index error: the body's length came from the client. Its type is the message type byte
 * ({@code 'Q'}, {@code 'P'}…), 0 for the untyped startup packet.
 */
final class PgMessage {
    private final byte type;
    private final byte[] body;
    private int pos;

    PgMessage(byte type, byte[] body) {
        this.type = type;
        this.body = body;
    }

    byte type() {
        return type;
    }

    /** The body's length: what holding the message costs. */
    int size() {
        return body.length;
    }

    int remaining() {
        return body.length - pos;
    }

    int readInt() throws PgProtocolException {
        need(4);
        int v = ((body[pos] & 0xff) << 24)
                | ((body[pos + 1] & 0xff) << 16)
                | ((body[pos + 2] & 0xff) << 8)
                | (body[pos + 3] & 0xff);
        pos += 4;
        return v;
    }

    int readShort() throws PgProtocolException {
        need(2);
        int v = ((body[pos] & 0xff) << 8) | (body[pos + 1] & 0xff);
        pos += 2;
        return v;
    }

    byte readByte() throws PgProtocolException {
        need(1);
        return body[pos++];
    }

    /** A NUL-terminated UTF-8 string. */
    String readCString() throws PgProtocolException {
        int end = pos;
        while (end < body.length && body[end] != 0) {
            end++;
        }
        if (end == body.length) {
            throw new PgProtocolException("a string in message '" + describeType() + "' has no terminating NUL");
        }
        String s = new String(body, pos, end - pos, StandardCharsets.UTF_8);
        pos = end + 1;
        return s;
    }

    byte[] readBytes(int n) throws PgProtocolException {
        if (n < 0) {
            throw new PgProtocolException("negative length " + n + " in message '" + describeType() + "'");
        }
        need(n);
        byte[] b = java.util.Arrays.copyOfRange(body, pos, pos + n);
        pos += n;
        return b;
    }

    /** A count the client sent, checked against what is left: each item takes at least {@code minBytes}. */
    int readCount(int minBytes) throws PgProtocolException {
        int n = readShort();
        if ((long) n * minBytes > remaining()) {
            throw new PgProtocolException(
                    "message '" + describeType() + "' announces " + n + " items, more than its length holds");
        }
        return n;
    }

    private void need(int n) throws PgProtocolException {
        if (n > body.length - pos) {
            throw new PgProtocolException("message '" + describeType() + "' is shorter than its fields");
        }
    }

    String describeType() {
        return type == 0
                ? "startup"
                : type >= 32 && type < 127 ? String.valueOf((char) type) : "0x" + Integer.toHexString(type & 0xff);
    }
}
