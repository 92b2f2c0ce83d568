package org.raidb.driver;

import java.util.Map;
import org.raidb.driver.protocol.HelloOkFrame;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.Protocol;
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

    /** The key of {@link #serverInfo} under which the controller announces the largest frame it accepts. */
    public static final String MAX_FRAME_BYTES = "maxFrameBytes";

    /**
     * The largest request frame the controller accepts, as it announced it, or the protocol's default
     * from a controller that predates the announcement (or sent something unreadable).
     */
    public int maxRequestFrameBytes() {
        String announced = serverInfo.get(MAX_FRAME_BYTES);
        try {
            return announced == null ? Protocol.DEFAULT_MAX_FRAME_BYTES : Math.max(1, Integer.parseInt(announced));
        } catch (NumberFormatException e) {
            return Protocol.DEFAULT_MAX_FRAME_BYTES;
        }
    }

    /** Whether the controller remembers recent request outcomes and answers outcome-only queries (failover). */
    public boolean remembersOutcomes() {
        return "1".equals(serverInfo.get(Protocol.REMEMBERS_OUTCOMES));
    }

    static ServerInfo read(PayloadReader r) throws ProtocolException {
        HelloOkFrame f = HelloOkFrame.read(r);
        return new ServerInfo(
                f.protocolVersion(),
                f.sessionId(),
                f.cancelSecret(),
                f.productName(),
                f.productVersion(),
                f.productMajor(),
                f.productMinor(),
                f.identifierQuote(),
                f.serverInfo());
    }
}
