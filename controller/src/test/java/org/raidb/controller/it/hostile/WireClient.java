package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.SQLException;
import java.util.Map;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.FrameReader;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;

/**
 * A protocol connection driven by hand, as a hostile or broken client would: frames are built and read
 * with the driver's codec and nothing else of the driver, so a test can send what no driver sends.
 * Reads give up after 10 s, which only guards the build against a controller that never answers.
 */
final class WireClient implements AutoCloseable {
    private static final int READ_TIMEOUT_MILLIS = 10_000;

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final FrameReader frames;
    private final PayloadWriter writer = new PayloadWriter();

    private WireClient(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        this.out = socket.getOutputStream();
        this.in = new BufferedInputStream(socket.getInputStream());
        this.frames = new FrameReader(in, Protocol.DEFAULT_MAX_FRAME_BYTES);
    }

    static WireClient connect(int port) throws IOException {
        return connect(port, InetAddress.getLoopbackAddress());
    }

    /** Connects from {@code from}, one of this machine's addresses (any of 127.0.0.0/8 on Linux). */
    static WireClient connect(int port, InetAddress from) throws IOException {
        Socket s = new Socket();
        try {
            s.bind(new InetSocketAddress(from, 0));
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), READ_TIMEOUT_MILLIS);
            return new WireClient(s);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** A logged-in session; fails the test unless the controller answers HELLO_OK. */
    static WireClient login(int port, String vdb, String user, String password) throws IOException {
        return login(port, InetAddress.getLoopbackAddress(), vdb, user, password);
    }

    static WireClient login(int port, InetAddress from, String vdb, String user, String password) throws IOException {
        WireClient c = connect(port, from);
        PayloadReader answer = c.hello(vdb, user, password);
        assertThat((char) answer.type()).as("answer to HELLO").isEqualTo((char) Protocol.HELLO_OK);
        return c;
    }

    /** Sends HELLO and returns the answer (HELLO_OK or ERROR). */
    PayloadReader hello(String vdb, String user, String password) throws IOException {
        helloFrame(writer, vdb, user, password);
        send();
        return next();
    }

    static PayloadWriter helloFrame(PayloadWriter w, String vdb, String user, String password) {
        return w.begin(Protocol.HELLO)
                .writeInt(Protocol.MAGIC)
                .writeInt(Protocol.VERSION)
                .writeString(vdb)
                .writeString(user)
                .writeString(password)
                .writeStringMap(Map.of());
    }

    /** Sends EXECUTE of {@code sql} with {@code paramCount} values written by {@code values}, default options after them. */
    void sendExecute(String sql, int paramCount, java.util.function.Consumer<PayloadWriter> values) throws IOException {
        PayloadWriter w = begin(Protocol.EXECUTE).writeString(sql).writeInt(paramCount);
        values.accept(w);
        w.writeByte(Protocol.MODE_ANY)
                .writeInt(0)
                .writeStringList(null)
                .writeInt(0)
                .writeLong(0)
                .writeInt(0);
        send();
    }

    /** The first column of the first row of a RESULTS answer holding one rowset. */
    Object nextSingleValue() throws IOException {
        PayloadReader r = next();
        assertThat((char) r.type()).as("frame type of the answer").isEqualTo((char) Protocol.RESULTS);
        assertThat(r.readInt()).as("results").isEqualTo(1);
        assertThat(r.readByte()).as("result kind").isEqualTo(Protocol.RESULT_ROWS);
        return org.raidb.driver.protocol.RowsetCodec.readRowset(r)
                .firstBatch()
                .rows()
                .get(0)[0];
    }

    /** Starts a frame; {@link #send} sends it. */
    PayloadWriter begin(byte type) {
        return writer.begin(type);
    }

    void send() throws IOException {
        writer.send(out);
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    PayloadReader next() throws IOException {
        return frames.next();
    }

    /** The next frame, which must be an ERROR. */
    SQLException nextError() throws IOException {
        PayloadReader r = next();
        assertThat((char) r.type()).as("frame type of the answer").isEqualTo((char) Protocol.ERROR);
        return ErrorFrame.read(r);
    }

    /** Sends PING and expects OK: the session still answers. */
    void assertAnswers() throws IOException {
        begin(Protocol.PING).writeInt(0);
        send();
        assertThat((char) next().type()).as("answer to PING").isEqualTo((char) Protocol.OK);
    }

    /** Reads until the controller closes the connection; fails if it sends anything or keeps it open. */
    void assertClosedByPeer() throws IOException {
        try {
            assertThat(in.read()).as("byte after the last answer").isEqualTo(-1);
        } catch (java.net.SocketException reset) {
            // closed with a reset: closed all the same
        }
    }

    Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
