package org.raidb.driver.protocol;

/** The OK frame, with no payload: the answer to CLOSE_CURSOR, TRANSACTION, PING and CLIENT_INFO. */
public final class OkFrame {
    private OkFrame() {}

    public static void write(PayloadWriter w) {
        w.begin(Protocol.OK);
    }
}
