package org.raidb.driver.protocol;

/** The CLOSE_CURSOR frame, sent by a client that stops reading a result set early: {@code int64 cursorId}. Answered by OK. */
public record CloseCursorFrame(long cursorId) {

    public void write(PayloadWriter w) {
        w.begin(Protocol.CLOSE_CURSOR).writeLong(cursorId);
    }

    public static CloseCursorFrame read(PayloadReader r) throws ProtocolException {
        return new CloseCursorFrame(r.readLong());
    }
}
