package org.raidb.controller.session;

import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.SqlStates;

/** The controller's live sessions and virtual databases, as sessions need them. */
public final class SessionRegistry {
  private final Map<String, VirtualDatabase> virtualDatabases;
  /** Configured virtual databases that could not start, with why. */
  private final Map<String, String> unavailable;
  private final Map<Long, ClientSession> sessions = new ConcurrentHashMap<>();
  private final int maxFrameBytes;
  private final String version;

  public SessionRegistry(Map<String, VirtualDatabase> virtualDatabases, Map<String, String> unavailable, int maxFrameBytes,
      String version) {
    this.virtualDatabases = virtualDatabases;
    this.unavailable = unavailable;
    this.maxFrameBytes = maxFrameBytes;
    this.version = version;
  }

  VirtualDatabase virtualDatabase(String name) throws SQLException {
    VirtualDatabase vdb = name == null ? null : virtualDatabases.get(name);
    if (vdb == null && unavailable.containsKey(name)) {
      throw new SQLException("virtual database \"" + name + "\" is configured but not served: it could not start ("
          + unavailable.get(name) + "); fix that and restart the controller", SqlStates.CONNECTION_UNABLE);
    }
    if (vdb == null) {
      throw new SQLException("virtual database \"" + name + "\" does not exist on this controller; it serves "
          + String.join(", ", virtualDatabases.keySet()) + ": check the database name in the JDBC URL",
          SqlStates.INVALID_CATALOG);
    }
    return vdb;
  }

  void register(long id, ClientSession s) {
    sessions.put(id, s);
  }

  void unregister(long id) {
    sessions.remove(id);
  }

  void cancel(PayloadReader frame) throws ProtocolException {
    if (frame.readInt() != Protocol.MAGIC) {
      throw new ProtocolException("bad magic number in CANCEL");
    }
    ClientSession s = sessions.get(frame.readLong());
    long secret = frame.readLong();
    if (s != null) {
      s.cancel(secret);
    }
  }

  public Collection<ClientSession> sessions() {
    return sessions.values();
  }

  int maxFrameBytes() {
    return maxFrameBytes;
  }

  String version() {
    return version;
  }
}
