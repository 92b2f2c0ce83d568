package org.raidb.controller.it.pgwire;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A PostgreSQL protocol client at the byte level, for what no well-behaved client sends. */
final class PgRawClient implements AutoCloseable {
    /** One backend message. */
    record Message(char type, byte[] body) {
        /** A field of an ErrorResponse or NoticeResponse ('C': SQLSTATE, 'M': message, 'S': severity). */
        String field(char code) {
            int i = 0;
            while (i < body.length && body[i] != 0) {
                int end = i + 1;
                while (body[end] != 0) {
                    end++;
                }
                if (body[i] == code) {
                    return new String(body, i + 1, end - i - 1, StandardCharsets.UTF_8);
                }
                i = end + 1;
            }
            return null;
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    PgRawClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    OutputStream rawOut() {
        return out;
    }

    int readByte() throws IOException {
        return in.read();
    }

    /** A startup-phase packet: int32 length, int32 code, then {@code rest}. */
    void untyped(int code, byte[] rest) throws IOException {
        out.writeInt(8 + rest.length);
        out.writeInt(code);
        out.write(rest);
        out.flush();
    }

    void startup(String user, String database) throws IOException {
        untyped(3 << 16, cstrings("user", user, "database", database, ""));
    }

    /** Startup and cleartext password, up to the first ReadyForQuery. */
    void logIn(String user, String password) throws IOException {
        startup(user, "shop");
        Message auth = expect('R');
        if (java.nio.ByteBuffer.wrap(auth.body()).getInt() != 3) {
            throw new IllegalStateException("expected cleartext password authentication");
        }
        send('p', cstrings(password));
        until('Z');
    }

    /**
     * One message in one write: written piecemeal, a message the controller refuses after its first bytes
     * (closing the connection) made the client's next piece fail with a broken pipe before it read the
     * ErrorResponse.
     */
    void send(char type, byte[] body) throws IOException {
        java.nio.ByteBuffer message = java.nio.ByteBuffer.allocate(5 + body.length);
        message.put((byte) type).putInt(body.length + 4).put(body);
        out.write(message.array());
        out.flush();
    }

    void query(String sql) throws IOException {
        send('Q', cstrings(sql));
    }

    Message read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("the controller closed the connection");
        }
        int length = in.readInt();
        byte[] body = new byte[length - 4];
        in.readFully(body);
        return new Message((char) type, body);
    }

    Message expect(char type) throws IOException {
        Message m = read();
        if (m.type() != type) {
            throw new IllegalStateException("expected '" + type + "', got '" + m.type() + "' " + m.field('M'));
        }
        return m;
    }

    /** Reads up to and including a message of {@code type}; the first ErrorResponse on the way, or that message. */
    Message until(char type) throws IOException {
        Message error = null;
        while (true) {
            Message m = read();
            if (m.type() == 'E' && error == null) {
                error = m;
            }
            if (m.type() == type) {
                return error != null ? error : m;
            }
        }
    }

    /** Whether the controller closed the connection (end of stream, no more messages). */
    boolean closedByServer() throws IOException {
        try {
            while (true) {
                read();
            }
        } catch (EOFException | java.net.SocketException e) {
            return true;
        }
    }

    static byte[] cstrings(String... strings) {
        StringBuilder sb = new StringBuilder();
        for (String s : strings) {
            sb.append(s).append('\0');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
