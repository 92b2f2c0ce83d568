package org.raidb.driver;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.FrameReader;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.RowsetCodec;

/**
 * A protocol peer for tests: it speaks the controller's side of docs/protocol.md over a local
 * socket, answering the handshake itself and every other request through the test's handler.
 * It is not a database: each test scripts the answers it needs.
 */
final class FakeController implements AutoCloseable {
    static final long SESSION_ID = 42;
    static final long CANCEL_SECRET = 4242;

    /** Answers one request; {@code peer.writer()} builds the answer, {@code peer.send()} sends it. */
    @FunctionalInterface
    interface Handler {
        void handle(PayloadReader request, Peer peer) throws Exception;
    }

    /** One client connection as the handler sees it. */
    static final class Peer {
        private final Socket socket;
        private final OutputStream out;
        private final PayloadWriter writer = new PayloadWriter();

        Peer(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
        }

        PayloadWriter begin(byte type) {
            return writer.begin(type);
        }

        void send() throws IOException {
            writer.send(out);
        }

        void ok() throws IOException {
            begin(Protocol.OK);
            send();
        }

        void error(SQLException e) throws IOException {
            ErrorFrame.write(writer, e);
            send();
        }

        /** A RESULTS frame holding one complete rowset. */
        void rows(List<ColumnInfo> columns, List<Object[]> rows) throws IOException {
            rows(0, columns, rows, true);
        }

        /** A RESULTS frame holding one rowset, the first batch of cursor {@code cursorId} unless {@code last}. */
        void rows(long cursorId, List<ColumnInfo> columns, List<Object[]> rows, boolean last) throws IOException {
            begin(Protocol.RESULTS).writeInt(1).writeByte(Protocol.RESULT_ROWS);
            RowsetCodec.writeRowset(writer, cursorId, columns, rows, last);
            writer.writeBoolean(false).writeInt(0); // no generated keys, no warnings
            send();
        }

        /** A ROWS frame: one more batch of a cursor. */
        void batch(List<Object[]> rows, boolean last) throws IOException {
            begin(Protocol.ROWS);
            RowsetCodec.writeBatch(writer, rows, last);
            send();
        }

        /** A RESULTS frame holding one update count. */
        void updateCount(long count) throws IOException {
            begin(Protocol.RESULTS)
                    .writeInt(1)
                    .writeByte(Protocol.RESULT_UPDATE_COUNT)
                    .writeLong(count)
                    .writeBoolean(false)
                    .writeInt(0);
            send();
        }

        void kill() throws IOException {
            socket.close();
        }
    }

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** Frame types received after the handshake, in order, as characters. */
    final List<Character> received = new CopyOnWriteArrayList<>();
    /** (sessionId, cancelSecret) of each CANCEL frame received. */
    final BlockingQueue<long[]> cancels = new LinkedBlockingQueue<>();
    /** The HELLO frames received: virtual database, user, password. */
    final List<String[]> hellos = new CopyOnWriteArrayList<>();

    final List<Map<String, String>> clientProperties = new CopyOnWriteArrayList<>();
    volatile SQLException helloError;
    /** HELLO_OK's serverInfo map. */
    volatile Map<String, String> serverInfo = Map.of();

    volatile Handler handler =
            (r, p) -> p.error(new SQLException("unexpected request '" + (char) r.type() + "'", "XX000"));

    FakeController() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::acceptLoop, "fake-controller");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    String url(String vdb) {
        return "jdbc:raidb://127.0.0.1:" + port() + "/" + vdb;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                Thread t = new Thread(() -> serve(s), "fake-controller-session");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            FrameReader frames =
                    new FrameReader(new BufferedInputStream(s.getInputStream()), Protocol.DEFAULT_MAX_FRAME_BYTES);
            Peer peer = new Peer(s);
            PayloadReader first = frames.next();
            if (first.type() == Protocol.CANCEL) {
                if (first.readInt() == Protocol.MAGIC) {
                    cancels.add(new long[] {first.readLong(), first.readLong()});
                }
                return; // closing without an answer, as the controller does
            }
            if (first.type() != Protocol.HELLO
                    || first.readInt() != Protocol.MAGIC
                    || first.readInt() != Protocol.VERSION) {
                return;
            }
            hellos.add(new String[] {first.readString(), first.readString(), first.readString()});
            clientProperties.add(first.readStringMap());
            if (helloError != null) {
                peer.error(helloError);
                return;
            }
            peer.begin(Protocol.HELLO_OK)
                    .writeInt(Protocol.VERSION)
                    .writeLong(SESSION_ID)
                    .writeLong(CANCEL_SECRET)
                    .writeString("PostgreSQL")
                    .writeString("15.8")
                    .writeInt(15)
                    .writeInt(8)
                    .writeString("\"")
                    .writeStringMap(serverInfo);
            peer.send();
            while (true) {
                PayloadReader r = frames.next();
                received.add((char) r.type());
                if (r.type() == Protocol.CLOSE) {
                    return;
                }
                handler.handle(r, peer);
            }
        } catch (Exception e) {
            // the client went away or the test closed us
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }

    static ColumnInfo intColumn(String label) {
        return ColumnInfo.simple(label, java.sql.Types.INTEGER, "int4", Integer.class.getName());
    }

    static ColumnInfo textColumn(String label) {
        return ColumnInfo.simple(label, java.sql.Types.VARCHAR, "text", String.class.getName());
    }
}
