package org.raidb.controller.pgwire;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads frontend messages: the untyped startup packet ({@code int32 length | body}) first, then typed
 * messages ({@code byte type | int32 length | body}, the length counting itself). A length past the frame
 * limit is refused before anything is allocated for it, so that a client cannot make the controller buffer a
 * gigabyte; an unknown type is refused before its body is read.
 */
final class PgMessageReader {
    /** The frontend message types of protocol 3.0 this front end reads after startup. */
    private static final String KNOWN_TYPES = "QPBDEHSCXcdfp";

    private final DataInputStream in;
    private int maxMessageBytes;

    PgMessageReader(InputStream in, int maxMessageBytes) {
        this.in = new DataInputStream(in);
        this.maxMessageBytes = maxMessageBytes;
    }

    void maxMessageBytes(int bytes) {
        maxMessageBytes = bytes;
    }

    /** The startup packet, SSLRequest, GSSENCRequest or CancelRequest: a message without a type byte. */
    PgMessage startup() throws IOException {
        return body((byte) 0, in.readInt());
    }

    /** The next typed message; {@link EOFException} when the client has gone. */
    PgMessage next() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("the client closed the connection");
        }
        if (KNOWN_TYPES.indexOf(type) < 0) {
            throw new PgProtocolException("invalid frontend message type " + describe(type)
                    + ": this port speaks the PostgreSQL protocol 3.0");
        }
        return body((byte) type, in.readInt());
    }

    private PgMessage body(byte type, int length) throws IOException {
        if (length < 4) {
            throw new PgProtocolException("invalid message length " + length);
        }
        if (length - 4L > maxMessageBytes) {
            throw new PgProtocolException(
                    "message of " + length + " bytes is longer than this controller's limit of " + maxMessageBytes
                            + " (maxFrameBytes): send smaller statements or parameters",
                    "54000");
        }
        byte[] body = new byte[length - 4];
        in.readFully(body);
        return new PgMessage(type, body);
    }

    private static String describe(int type) {
        return type >= 32 && type < 127 ? "'" + (char) type + "'" : "0x" + Integer.toHexString(type);
    }
}
