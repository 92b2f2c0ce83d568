package org.raidb.driver.protocol;

/**
 * The CANCEL frame, the first and only frame of a new connection: {@code int32 magic | int64 sessionId |
 * int64 cancelSecret}. The controller cancels what that session runs and closes the connection without answering.
 */
public record CancelFrame(long sessionId, long cancelSecret) {

    public void write(PayloadWriter w) {
        w.begin(Protocol.CANCEL).writeInt(Protocol.MAGIC).writeLong(sessionId).writeLong(cancelSecret);
    }

    public static CancelFrame read(PayloadReader r) throws ProtocolException {
        if (r.readInt() != Protocol.MAGIC) {
            throw new ProtocolException("bad magic number in CANCEL");
        }
        long sessionId = r.readLong();
        return new CancelFrame(sessionId, r.readLong());
    }

    /** The secret stays out of logs. */
    @Override
    public String toString() {
        return "CancelFrame[sessionId=" + sessionId + "]";
    }
}
