package org.raidb.driver.protocol;

/**
 * What makes a request that may write recognizable when it is sent again after its controller failed: the
 * request id (a counter of the client session named in HELLO) and whether the sender only asks for the
 * outcome the controller remembers of it. Written at the end of EXECUTE, BATCH and TRANSACTION as
 * {@code int64 requestId | byte outcomeOnly}, and only when the request has an id: a frame without it is
 * the version 2 frame, which is why the tag needed no new protocol version (a controller that predates it
 * stops reading before it).
 *
 * @param requestId 1, 2, 3, ... within the client session; 0 for none (the tag is not written)
 * @param outcomeOnly answer the remembered outcome of this request, or ERROR {@link SqlStates#NO_DATA}
 *     when there is none, without running it
 */
public record RequestTag(long requestId, boolean outcomeOnly) {
    public static final RequestTag NONE = new RequestTag(0, false);

    public static RequestTag of(long requestId) {
        return new RequestTag(requestId, false);
    }

    public boolean present() {
        return requestId != 0;
    }

    /** The same request, asked for its remembered outcome only. */
    public RequestTag asOutcomeQuery() {
        return new RequestTag(requestId, true);
    }

    void write(PayloadWriter w) {
        if (present()) {
            w.writeLong(requestId).writeBoolean(outcomeOnly);
        }
    }

    /** The tag at the end of a frame, or {@link #NONE} when the frame ends before it. */
    static RequestTag read(PayloadReader r) throws ProtocolException {
        if (!r.hasRemaining()) {
            return NONE;
        }
        long id = r.readLong();
        return new RequestTag(id, r.readBoolean());
    }
}
