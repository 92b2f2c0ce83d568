package org.raidb.driver.protocol;

/** The PING frame, Connection.isValid: {@code int32 timeoutSeconds}. Answered by OK. */
public record PingFrame(int timeoutSeconds) {

    public void write(PayloadWriter w) {
        w.begin(Protocol.PING).writeInt(timeoutSeconds);
    }

    public static PingFrame read(PayloadReader r) throws ProtocolException {
        return new PingFrame(r.readInt());
    }
}
