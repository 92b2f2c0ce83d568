package org.raidb.controller.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.recovery.RecoveryLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After a restart, finishes the two-phase commits a controller left between its phases: a
 * transaction prepared on a backend is committed there if the recovery log holds its COMMIT (the
 * decision was made), and rolled back otherwise. Global ids are {@code raidb_<vdb>_<transaction id>}.
 */
final class PreparedTransactions {
    private static final Logger log = LoggerFactory.getLogger(PreparedTransactions.class);

    private PreparedTransactions() {}

    /** Resolves the prepared transactions of {@code vdb} on every enabled PostgreSQL backend; returns how many. */
    static int resolve(String vdb, List<DatabaseBackend> backends, RecoveryLog recoveryLog) throws SQLException {
        String prefix = "raidb_" + vdb + "_";
        int resolved = 0;
        for (DatabaseBackend b : backends) {
            if (!b.isEnabled()
                    || b.isController() // says PostgreSQL, holds no prepared transaction of this controller
                    || b.productInfo() == null
                    || !"PostgreSQL".equals(b.productInfo().name())) {
                continue;
            }
            try (Connection c = b.directConnection(null)) {
                for (String gid : prepared(c, prefix)) {
                    long tx = Long.parseLong(gid.substring(prefix.length()));
                    boolean commit = recoveryLog.committed(tx);
                    try (Statement st = c.createStatement()) {
                        st.execute((commit ? "COMMIT" : "ROLLBACK") + " PREPARED '" + gid + "'");
                    }
                    log.warn(
                            "backend {} of virtual database {}: transaction {} was left prepared by a controller that stopped"
                                    + " between the two phases of its commit; {} it, as the recovery log decided",
                            b.name(),
                            vdb,
                            tx,
                            commit ? "committed" : "rolled back");
                    resolved++;
                }
            }
        }
        return resolved;
    }

    private static List<String> prepared(Connection c, String prefix) throws SQLException {
        List<String> gids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT gid FROM pg_prepared_xacts WHERE database = current_database()" + " AND starts_with(gid, ?)")) {
            ps.setString(1, prefix);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String gid = rs.getString(1);
                    if (gid.substring(prefix.length()).matches("\\d+")) {
                        gids.add(gid);
                    }
                }
            }
        }
        return gids;
    }
}
