package org.raidb.driver.protocol;

/** The CLOSE frame, with no payload: the session ends, an open transaction is rolled back; no answer. */
public final class CloseFrame {
    private CloseFrame() {}

    public static void write(PayloadWriter w) {
        w.begin(Protocol.CLOSE);
    }
}
