package org.raidb.driver.protocol;

/**
 * The FETCH frame, asking for the next batch of a streamed result set: {@code int64 cursorId | int32 maxRows}.
 * Answered by {@link RowsFrame}.
 *
 * @param maxRows rows wanted, 0 or less for {@link Protocol#DEFAULT_FETCH_SIZE}
 */
public record FetchFrame(long cursorId, int maxRows) {

    public void write(PayloadWriter w) {
        w.begin(Protocol.FETCH).writeLong(cursorId).writeInt(maxRows);
    }

    public static FetchFrame read(PayloadReader r) throws ProtocolException {
        long cursorId = r.readLong();
        return new FetchFrame(cursorId, r.readInt());
    }

    /** The rows the client asked for, or the protocol's default. */
    public int effectiveMaxRows() {
        return maxRows > 0 ? maxRows : Protocol.DEFAULT_FETCH_SIZE;
    }
}
