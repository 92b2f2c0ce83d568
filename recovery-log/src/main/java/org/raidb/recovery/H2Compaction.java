package org.raidb.recovery;

import java.sql.Connection;
import java.sql.SQLException;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;

/**
 * Keeps an embedded H2 store's file proportional to what it holds. Each store commit writes a new chunk
 * (H2's MVStore is append-only); chunks whose pages have all been rewritten are reused after the
 * retention time, but a chunk that keeps one live page (a full leaf of the entry table) stays, mostly
 * empty. H2 compacts such chunks from its background writer thread, which {@code WRITE_DELAY=0} (every
 * commit written at once, as the log needs) switches off. The writer calls {@link #afterCommit()}; every
 * {@link #EVERY_COMMITS} commits it rewrites the live pages of the emptiest chunks, at most {@link
 * #WRITE_BYTES} at a time, as H2's own background thread would. Space of rewritten chunks is reused
 * after H2's retention time (45 s), which stays at its default: see docs/recovery-log.md.
 */
final class H2Compaction {

    static final int EVERY_COMMITS = 200;
    static final int TARGET_FILL_RATE = 80;
    static final int WRITE_BYTES = 4 << 20;

    private final MVStore store;
    private int commits;

    private H2Compaction(MVStore store) {
        this.store = store;
    }

    /** For an embedded H2 connection; null for any other store (nothing to do). */
    static H2Compaction of(Connection c) throws SQLException {
        if (!c.isWrapperFor(JdbcConnection.class)) {
            return null;
        }
        if (!(c.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal local)) {
            return null; // an H2 server's store: its own process maintains it
        }
        var s = local.getDatabase().getStore();
        return s == null ? null : new H2Compaction(s.getMvStore());
    }

    void afterCommit() {
        if (++commits < EVERY_COMMITS) {
            return;
        }
        commits = 0;
        if (!store.isClosed() && store.getFillRate() < TARGET_FILL_RATE) {
            store.compact(TARGET_FILL_RATE, WRITE_BYTES);
        }
    }
}
