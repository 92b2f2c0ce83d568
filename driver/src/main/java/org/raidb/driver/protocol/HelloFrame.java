package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.util.Map;

/**
 * The HELLO frame, the first on a connection:
 * {@code int32 magic | int32 protocolVersion | string virtualDatabase | string user | string password | stringMap clientProperties
 * [| string clientSessionId]}. Answered by {@link HelloOkFrame} or ERROR.
 *
 * @param clientProperties the connection properties the driver does not interpret itself
 * @param clientSessionId the id the driver made for the logical connection, the same on every controller it
 *     fails over to, so that they recognize its requests ({@link RequestTag}); null from a driver that predates
 *     it (a controller that predates it stops reading before it)
 */
public record HelloFrame(
        int protocolVersion,
        String virtualDatabase,
        String user,
        String password,
        Map<String, String> clientProperties,
        String clientSessionId) {

    /** A HELLO of this release's protocol version. */
    public HelloFrame(
            String virtualDatabase,
            String user,
            String password,
            Map<String, String> clientProperties,
            String clientSessionId) {
        this(Protocol.VERSION, virtualDatabase, user, password, clientProperties, clientSessionId);
    }

    /** A HELLO without a client session id, as drivers before failover sent it. */
    public HelloFrame(String virtualDatabase, String user, String password, Map<String, String> clientProperties) {
        this(Protocol.VERSION, virtualDatabase, user, password, clientProperties, null);
    }

    public void write(PayloadWriter w) {
        w.begin(Protocol.HELLO)
                .writeInt(Protocol.MAGIC)
                .writeInt(protocolVersion)
                .writeString(virtualDatabase)
                .writeString(user)
                .writeString(password)
                .writeStringMap(clientProperties);
        if (clientSessionId != null) {
            w.writeString(clientSessionId);
        }
    }

    /**
     * Reads the payload. Bad magic is a protocol violation; another protocol version is refused (08P01)
     * before the rest is read, since its layout may differ.
     */
    public static HelloFrame read(PayloadReader r) throws ProtocolException, SQLException {
        int magic = r.readInt();
        int version = r.readInt();
        if (magic != Protocol.MAGIC) {
            throw new ProtocolException("bad magic number 0x" + Integer.toHexString(magic));
        }
        if (version != Protocol.VERSION) {
            throw new SQLException(
                    "protocol version " + version + " is not supported; this controller speaks version "
                            + Protocol.VERSION + ": use a driver of the same release",
                    SqlStates.PROTOCOL_VIOLATION);
        }
        String virtualDatabase = r.readString();
        String user = r.readString();
        String password = r.readString();
        Map<String, String> clientProperties = r.readStringMap();
        String clientSessionId = r.hasRemaining() ? r.readString() : null;
        return new HelloFrame(version, virtualDatabase, user, password, clientProperties, clientSessionId);
    }

    /** The password stays out of logs and test failure messages. */
    @Override
    public String toString() {
        return "HelloFrame[protocolVersion=" + protocolVersion + ", virtualDatabase=" + virtualDatabase + ", user="
                + user + ", clientProperties=" + clientProperties + ", clientSessionId=" + clientSessionId + "]";
    }
}
