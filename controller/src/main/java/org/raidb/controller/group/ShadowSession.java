package org.raidb.controller.group;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.raidb.controller.transaction.SessionState;

/**
 * Another controller's client session, as this controller replays it: a session state of its own
 * (its transaction, its settings) and one thread, so that its writes run one after another in the
 * order they were delivered, as they did for the client.
 */
final class ShadowSession {
    final SessionState state;
    final String origin;
    private final ExecutorService thread;
    /** The group transaction its last write belonged to: what a rollback at the origin's departure ends. */
    volatile String lastTx;

    ShadowSession(String origin, SessionState state, String name) {
        this.origin = origin;
        this.state = state;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    void submit(Runnable work) {
        thread.execute(work);
    }

    /** Runs what was submitted before, then stops its thread. */
    void close() {
        thread.shutdown();
    }
}
