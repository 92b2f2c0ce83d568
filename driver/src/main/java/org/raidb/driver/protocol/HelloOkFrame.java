package org.raidb.driver.protocol;

import java.util.Map;

/**
 * The HELLO_OK frame, the controller's answer to a HELLO it accepts:
 *
 * <pre>
 * int32 protocolVersion | int64 sessionId | int64 cancelSecret | string productName | string productVersion |
 * int32 productMajor | int32 productMinor | string identifierQuote | stringMap serverInfo
 * </pre>
 *
 * @param productName the virtual database's backends' product, so that tools pick its dialect
 * @param serverInfo {@code controller}, {@code virtualDatabase} and {@code maxFrameBytes}
 */
public record HelloOkFrame(
        int protocolVersion,
        long sessionId,
        long cancelSecret,
        String productName,
        String productVersion,
        int productMajor,
        int productMinor,
        String identifierQuote,
        Map<String, String> serverInfo) {

    public void write(PayloadWriter w) {
        w.begin(Protocol.HELLO_OK)
                .writeInt(protocolVersion)
                .writeLong(sessionId)
                .writeLong(cancelSecret);
        w.writeString(productName)
                .writeString(productVersion)
                .writeInt(productMajor)
                .writeInt(productMinor);
        w.writeString(identifierQuote).writeStringMap(serverInfo);
    }

    public static HelloOkFrame read(PayloadReader r) throws ProtocolException {
        int version = r.readInt();
        long sessionId = r.readLong();
        long cancelSecret = r.readLong();
        String productName = r.readString();
        String productVersion = r.readString();
        int major = r.readInt();
        int minor = r.readInt();
        String quote = r.readString();
        return new HelloOkFrame(
                version,
                sessionId,
                cancelSecret,
                productName,
                productVersion,
                major,
                minor,
                quote,
                Map.copyOf(r.readStringMap()));
    }

    /** The cancel secret stays out of logs. */
    @Override
    public String toString() {
        return "HelloOkFrame[protocolVersion=" + protocolVersion + ", sessionId=" + sessionId + ", productName="
                + productName + ", productVersion=" + productVersion + ", serverInfo=" + serverInfo + "]";
    }
}
