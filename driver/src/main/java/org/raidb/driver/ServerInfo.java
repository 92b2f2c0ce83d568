package org.raidb.driver;

import java.util.Map;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.ProtocolException;

/**
 * What HELLO_OK told us: the session's cancel credentials and the backend's product identity, which
 * DatabaseMetaData reports so that tools and ORMs pick the backend's dialect.
 */
public record ServerInfo(
    int protocolVersion,
    long sessionId,
    long cancelSecret,
    String productName,
    String productVersion,
    int productMajor,
    int productMinor,
    String identifierQuote,
    Map<String, String> serverInfo) {

  static ServerInfo read(PayloadReader r) throws ProtocolException {
    return new ServerInfo(r.readInt(), r.readLong(), r.readLong(), r.readString(), r.readString(), r.readInt(),
        r.readInt(), r.readString(), Map.copyOf(r.readStringMap()));
  }
}
