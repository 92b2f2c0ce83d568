package org.raidb.tpcw.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.tpcw.play.ConnectionFactory;
import org.raidb.tpcw.play.RetryPolicy;
import org.raidb.tpcw.populate.Populator;
import org.raidb.tpcw.schema.Scale;

/** Small TPC-W databases on test servers, and what tests compare them by. */
public final class TpcwTestDatabases {

    /**
     * Replays through the controller under its default scheduler retry deadlock victims (40P01) until they
     * commit. The player's default bound (10) is tested by RetryLoopTest; a replay test checks that the
     * result is identical, and a hot Buy Confirm can lose more than 10 times in a row (a retried transaction
     * comes back as the youngest, and the youngest closes the cycles): with the default bound a run now and
     * then ended one transaction short (seen once in four full builds).
     */
    public static final RetryPolicy UNTIL_COMMITTED = RetryPolicy.withMaxRetries(10_000);

    /** 100 items and one EB: 2,880 customers, about 21,000 rows, populated in a second or two. */
    public static final Scale SMALL = new Scale(100, 1);

    public static final long SEED = 42;

    private TpcwTestDatabases() {}

    public static ConnectionFactory plain(EmbeddedPostgresServer server) {
        return new ConnectionFactory(server.jdbcUrl(), server.user(), server.password());
    }

    public static void populate(EmbeddedPostgresServer server, Scale scale, long seed) throws SQLException {
        try (Connection c = server.connect()) {
            new Populator(scale, seed).populate(c);
        }
    }

    /** Per-table count and checksum, read directly from the server. */
    public static Map<String, String> checksums(EmbeddedPostgresServer server) throws SQLException {
        try (Connection c = server.connect()) {
            return TableChecksum.checksums(c);
        }
    }
}
