package org.raidb.controller.session;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.backend.ProductInfo;
import org.raidb.controller.request.ExecuteRequest;
import org.raidb.controller.request.MetadataCall;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.result.RowSource;
import org.raidb.controller.result.RowsetFrames;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.FrameReader;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.PayloadWriter;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.SqlStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One driver connection: authenticates once, then reads one request frame at a time, hands it to its
 * virtual database and writes the answer. Any error a request causes is sent to the client as an
 * ERROR frame and the session goes on; only a protocol violation ends it.
 */
public final class ClientSession implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(ClientSession.class);
  private static final int HANDSHAKE_TIMEOUT_MILLIS = 30_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Socket socket;
  private final SessionRegistry registry;
  private final long id;
  private final long cancelSecret = RANDOM.nextLong();
  private final PayloadWriter out = new PayloadWriter();
  private final Map<Long, RowSource> cursors = new HashMap<>();
  private long nextCursorId = 1;
  private OutputStream output;
  private VirtualDatabase vdb;
  private SessionState state;

  public ClientSession(Socket socket, SessionRegistry registry, long id) {
    this.socket = socket;
    this.registry = registry;
    this.id = id;
  }

  @Override
  public void run() {
    try (socket) {
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
      FrameReader in = new FrameReader(new BufferedInputStream(socket.getInputStream(), 16384), registry.maxFrameBytes());
      output = new BufferedOutputStream(socket.getOutputStream(), 16384);
      PayloadReader first = in.next();
      if (first.type() == Protocol.CANCEL) {
        registry.cancel(first);
        return;
      }
      if (!handshake(first)) {
        return;
      }
      socket.setSoTimeout(0);
      while (serve(in.next())) {
        // one request, one answer
      }
    } catch (ProtocolException e) {
      log.warn("closing connection from {}: protocol violation: {}", socket.getRemoteSocketAddress(), e.getMessage());
      sendQuietly(new SQLException("protocol violation: " + e.getMessage() + "; is this a RAIDb driver of a matching version?",
          SqlStates.PROTOCOL_VIOLATION));
    } catch (EOFException | SocketException e) {
      log.debug("session {} ended: {}", id, e.getMessage());
    } catch (IOException e) {
      log.info("session {} ended on an I/O error: {}", id, e.toString());
    } finally {
      cleanUp();
    }
  }

  private boolean handshake(PayloadReader hello) throws IOException {
    if (hello.type() != Protocol.HELLO) {
      throw new ProtocolException("expected a HELLO frame first, got type " + (hello.type() & 0xff));
    }
    int magic = hello.readInt();
    int version = hello.readInt();
    if (magic != Protocol.MAGIC) {
      throw new ProtocolException("bad magic number 0x" + Integer.toHexString(magic));
    }
    if (version != Protocol.VERSION) {
      send(new SQLException("protocol version " + version + " is not supported; this controller speaks version "
          + Protocol.VERSION + ": use a driver of the same release", SqlStates.PROTOCOL_VIOLATION));
      return false;
    }
    String vdbName = hello.readString();
    String user = hello.readString();
    String password = hello.readString();
    hello.readStringMap(); // client properties: informational for now
    try {
      vdb = registry.virtualDatabase(vdbName);
      vdb.authentication().authenticateVirtualUser(user, password);
      ProductInfo product = vdb.productInfo();
      state = new SessionState(id, user);
      registry.register(id, this);
      out.begin(Protocol.HELLO_OK).writeInt(Protocol.VERSION).writeLong(id).writeLong(cancelSecret);
      out.writeString(product == null ? "PostgreSQL" : product.name());
      out.writeString(product == null ? "" : product.version());
      out.writeInt(product == null ? 0 : product.majorVersion());
      out.writeInt(product == null ? 0 : product.minorVersion());
      out.writeString(product == null ? "\"" : product.identifierQuote());
      out.writeStringMap(Map.of("controller", "RAIDb " + registry.version(), "virtualDatabase", vdb.name()));
      out.send(output);
      log.debug("session {} opened on {} by {}", id, vdbName, user);
      return true;
    } catch (SQLException e) {
      log.info("refused connection from {} to virtual database {} as {}: {}", socket.getRemoteSocketAddress(), vdbName,
          user, e.getMessage());
      send(e);
      return false;
    }
  }

  /** Serves one request; returns false when the client closed the session. */
  private boolean serve(PayloadReader f) throws IOException {
    try {
      switch (f.type()) {
        case Protocol.EXECUTE:
          execute(f);
          break;
        case Protocol.FETCH:
          fetch(f);
          break;
        case Protocol.CLOSE_CURSOR:
          closeCursor(f.readLong());
          out.begin(Protocol.OK).send(output);
          break;
        case Protocol.BATCH:
          batch(f);
          break;
        case Protocol.TRANSACTION:
          new TransactionFrames(vdb, state).handle(f);
          out.begin(Protocol.OK).send(output);
          break;
        case Protocol.METADATA:
          metadata(f);
          break;
        case Protocol.PING:
          out.begin(Protocol.OK).send(output);
          break;
        case Protocol.CLOSE:
          return false;
        default:
          throw new ProtocolException("unknown frame type " + (f.type() & 0xff));
      }
    } catch (SQLException e) {
      send(e);
    } catch (RuntimeException e) {
      log.error("internal error in session {}", id, e);
      send(new SQLException("internal controller error: " + e + "; the session is still usable, please report this",
          SqlStates.INTERNAL_ERROR));
    }
    return true;
  }

  private void execute(PayloadReader f) throws IOException, SQLException {
    String sql = f.readString();
    int paramCount = f.readInt();
    List<Object> params = null;
    if (paramCount >= 0) {
      params = new ArrayList<>(paramCount);
      for (int i = 0; i < paramCount; i++) {
        params.add(f.readValue());
      }
    }
    byte mode = f.readByte();
    int flags = f.readInt();
    List<String> keyColumns = f.readStringList();
    int fetchSize = f.readInt();
    long maxRows = f.readLong();
    int timeout = f.readInt();
    if (sql == null || sql.isBlank()) {
      throw new SQLException("empty SQL statement: send a statement to run", SqlStates.SYNTAX_ERROR);
    }
    ExecuteRequest r = new ExecuteRequest(sql, params, mode, (flags & Protocol.FLAG_RETURN_GENERATED_KEYS) != 0,
        keyColumns, fetchSize > 0 ? fetchSize : Protocol.DEFAULT_FETCH_SIZE, maxRows, timeout,
        (flags & Protocol.FLAG_CALL) != 0);
    StatementResult result = vdb.requests().execute(state, r);
    writeResults(result, r.fetchSize());
  }

  private void writeResults(StatementResult result, int fetchSize) throws IOException, SQLException {
    out.begin(Protocol.RESULTS);
    List<Object> items = result.results();
    out.writeInt(items.size());
    boolean single = items.size() == 1;
    for (Object item : items) {
      if (item instanceof Long count) {
        out.writeByte(Protocol.RESULT_UPDATE_COUNT).writeLong(count);
      } else {
        out.writeByte(Protocol.RESULT_ROWS);
        writeRowset((RowSource) item, single ? fetchSize : Integer.MAX_VALUE);
      }
    }
    if (result.generatedKeys() != null) {
      out.writeByte(1);
      writeRowset(result.generatedKeys(), Integer.MAX_VALUE);
    } else {
      out.writeByte(0);
    }
    out.send(output);
  }

  private void writeRowset(RowSource rows, int fetchSize) throws SQLException {
    long cursorId = nextCursorId++;
    boolean last;
    try {
      last = RowsetFrames.writeRowset(out, cursorId, rows, fetchSize);
    } catch (SQLException | RuntimeException e) {
      rows.close();
      throw e;
    }
    if (last) {
      rows.close();
    } else {
      cursors.put(cursorId, rows);
    }
  }

  private void fetch(PayloadReader f) throws IOException, SQLException {
    long cursorId = f.readLong();
    int max = f.readInt();
    RowSource rows = cursors.get(cursorId);
    if (rows == null) {
      throw new SQLException("cursor " + cursorId + " does not exist or is already closed", "24000");
    }
    out.begin(Protocol.ROWS);
    boolean last;
    try {
      last = rows.writeBatch(out, max > 0 ? max : Protocol.DEFAULT_FETCH_SIZE, RowsetFrames.BATCH_BYTES);
    } catch (SQLException | RuntimeException e) {
      closeCursor(cursorId);
      throw e;
    }
    if (last) {
      closeCursor(cursorId);
    }
    out.send(output);
  }

  private void closeCursor(long cursorId) {
    RowSource rows = cursors.remove(cursorId);
    if (rows != null) {
      rows.close();
    }
  }

  private void batch(PayloadReader f) throws IOException, SQLException {
    BatchRequest received = BatchRequest.read(f);
    AnalyzedStatement a = received.analyze(vdb.analyzer());
    BatchRequest batch = received.deterministic(vdb.analyzer(), sql -> vdb.requests().deterministicText(state, sql));
    StatementResult result = vdb.requests().write(state, a, batch.loggedStatements(), batch.describe(), batch::run);
    out.begin(Protocol.BATCH_RESULT);
    out.writeInt(result.results().size());
    for (Object count : result.results()) {
      out.writeLong((Long) count);
    }
    out.send(output);
  }

  private void metadata(PayloadReader f) throws IOException, SQLException {
    String method = f.readString();
    int n = f.readCount(1);
    List<Object> args = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      args.add(f.readValue());
    }
    writeResults(new StatementResult(List.of(MetadataCall.call(vdb, state, method, args)), null), Integer.MAX_VALUE);
  }

  /** Called from the cancel connection's thread. */
  void cancel(long secret) {
    if (secret == cancelSecret && state != null) {
      state.running().cancelAll();
    }
  }

  private void send(SQLException e) throws IOException {
    ErrorFrame.write(out, e);
    out.send(output);
  }

  private void sendQuietly(SQLException e) {
    try {
      if (output != null) {
        send(e);
      }
    } catch (IOException ignored) {
      // the peer is gone or not listening: closing is all that is left
    }
  }

  /** Ends the session: open cursors are closed and an unfinished transaction is rolled back. */
  private void cleanUp() {
    registry.unregister(id);
    for (RowSource rows : cursors.values()) {
      rows.close();
    }
    cursors.clear();
    if (state != null && vdb != null) {
      try {
        vdb.requests().rollback(state);
      } catch (SQLException | RuntimeException e) {
        log.debug("rollback at end of session {} failed: {}", id, e.toString());
      }
    }
  }

  /** Forcibly ends the session (controller shutdown). */
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // already closed
    }
  }
}
