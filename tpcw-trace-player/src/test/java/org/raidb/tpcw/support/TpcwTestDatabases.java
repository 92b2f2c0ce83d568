package org.raidb.tpcw.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.tpcw.play.ConnectionFactory;
import org.raidb.tpcw.populate.Populator;
import org.raidb.tpcw.schema.Scale;

/** Small TPC-W databases on test servers, and what tests compare them by. */
public final class TpcwTestDatabases {

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
