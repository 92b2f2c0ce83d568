package org.raidb.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The log's tables: their names (prefix + fixed name), creation, and the schema-version check.
 *
 * <p>Several virtual databases may share a store. The small tables (checkpoints, backend states,
 * dumps) carry a {@code vdb} column leading their primary key. The entries do not: each virtual
 * database has its own entry table {@code <prefix>log_<id>} and statement table {@code
 * <prefix>stmt_<id>}, {@code id} a small number from {@code <prefix>vdb}, so that an entry's key is
 * its position alone. On H2 a single BIGINT primary key is the row key itself: one B-tree per table,
 * so a store commit of entries rewrites the pages of one map, not of a table plus its indexes.
 */
final class LogSchema {

    /**
     * Bumped whenever a table changes shape; a store with another version is refused. 2: compact
     * entries (statement table, numeric kind and outcome, one entry table per virtual database, no
     * secondary index), tail snapshots, scan start kept with each checkpoint.
     */
    static final int VERSION = 2;

    private static final String VERSION_KEY = "schema_version";

    final String prefix;
    final String meta;
    final String vdbs;
    final String logState;
    final String checkpoint;
    final String checkpointApplied;
    final String checkpointInDoubt;
    final String backendState;
    final String backendCause;
    final String dump;

    LogSchema(String prefix) {
        this.prefix = prefix;
        meta = prefix + "meta";
        vdbs = prefix + "vdb";
        logState = prefix + "log_state";
        checkpoint = prefix + "checkpoint";
        checkpointApplied = prefix + "checkpoint_applied";
        checkpointInDoubt = prefix + "checkpoint_in_doubt";
        backendState = prefix + "backend_state";
        backendCause = prefix + "backend_cause";
        dump = prefix + "dump";
    }

    /** The entry table of the virtual database with id {@code vdbId}. */
    String log(int vdbId) {
        return prefix + "log_" + vdbId;
    }

    /** The statement table (SQL text and tables written, stored once) of virtual database {@code vdbId}. */
    String statements(int vdbId) {
        return prefix + "stmt_" + vdbId;
    }

    /**
     * Checks the schema version first (a store of another version is refused before anything is created in
     * it), creates the missing shared tables, and returns the id of {@code vdb}, creating its tables.
     */
    int createOrCheck(Connection c, StoreDialect dialect, String url, String vdb) throws SQLException {
        c.setAutoCommit(true);
        String found = storedVersion(c);
        if (found != null && !found.equals(Integer.toString(VERSION))) {
            throw wrongVersion(url, found);
        }
        List<String> ddl = List.of(
                "CREATE TABLE IF NOT EXISTS " + meta
                        + " (meta_key VARCHAR(255) NOT NULL PRIMARY KEY, meta_value VARCHAR(255) NOT NULL)",
                "CREATE TABLE IF NOT EXISTS " + vdbs
                        + " (name VARCHAR(128) NOT NULL PRIMARY KEY, vdb_id INT NOT NULL UNIQUE)",
                // What the log says at a position (LogTail), saved every few thousand positions: a restart starts
                // from the last one, a replay from a position from the last one before it.
                "CREATE TABLE IF NOT EXISTS " + logState + " (vdb_id INT NOT NULL, log_position BIGINT NOT NULL,"
                        + " max_tx_id BIGINT NOT NULL, oldest_pending BIGINT NOT NULL,"
                        + " open_transactions " + dialect.longText() + ", PRIMARY KEY (vdb_id, log_position))",
                // scan_start: where a replay from the checkpoint starts reading (the first entry of the oldest
                // transaction open at it), fixed when the checkpoint is taken so that enable and purge need no
                // search.
                "CREATE TABLE IF NOT EXISTS " + checkpoint + " (vdb VARCHAR(128) NOT NULL, name VARCHAR(255) NOT NULL,"
                        + " log_position BIGINT NOT NULL, scan_start BIGINT NOT NULL, created_at BIGINT NOT NULL,"
                        + " PRIMARY KEY (vdb, name))",
                // Items after a checkpoint that its backend already holds (a backend that failed mid-workload
                // had finished some later, non-conflicting writes before it stopped).
                "CREATE TABLE IF NOT EXISTS " + checkpointApplied + " (vdb VARCHAR(128) NOT NULL,"
                        + " checkpoint_name VARCHAR(255) NOT NULL, log_position BIGINT NOT NULL,"
                        + " PRIMARY KEY (vdb, checkpoint_name, log_position))",
                // Items after a checkpoint that its backend may or may not hold: its connection broke while it
                // ran them (the server may have committed before the answer was lost).
                "CREATE TABLE IF NOT EXISTS " + checkpointInDoubt + " (vdb VARCHAR(128) NOT NULL,"
                        + " checkpoint_name VARCHAR(255) NOT NULL, log_position BIGINT NOT NULL,"
                        + " PRIMARY KEY (vdb, checkpoint_name, log_position))",
                "CREATE TABLE IF NOT EXISTS " + backendState + " (vdb VARCHAR(128) NOT NULL,"
                        + " backend VARCHAR(255) NOT NULL, state VARCHAR(16) NOT NULL, last_checkpoint VARCHAR(255),"
                        + " updated_at BIGINT NOT NULL, PRIMARY KEY (vdb, backend))",
                // Why a backend is out (failure, divergence, administrator): enable refuses a diverged one, also
                // after a restart.
                "CREATE TABLE IF NOT EXISTS " + backendCause + " (vdb VARCHAR(128) NOT NULL,"
                        + " backend VARCHAR(255) NOT NULL, kind VARCHAR(16) NOT NULL, reason " + dialect.longText()
                        + ", PRIMARY KEY (vdb, backend))",
                "CREATE TABLE IF NOT EXISTS " + dump + " (vdb VARCHAR(128) NOT NULL, name VARCHAR(255) NOT NULL,"
                        + " backend VARCHAR(255) NOT NULL, checkpoint_name VARCHAR(255) NOT NULL,"
                        + " dump_format VARCHAR(64) NOT NULL, dump_path VARCHAR(1024) NOT NULL, dumped_at BIGINT NOT NULL,"
                        + " size_bytes BIGINT NOT NULL, PRIMARY KEY (vdb, name))");
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            for (String sql : ddl) {
                s.execute(sql);
            }
            c.commit();
            if (storedVersion(c) == null) {
                insertVersion(c);
            }
            int id = vdbId(c, vdb);
            // A log written entry by entry: kind and outcome are small numbers (EntryKind, Outcome codes), the
            // SQL text and tables written are a reference into the statement table.
            s.execute("CREATE TABLE IF NOT EXISTS " + log(id) + " (log_position BIGINT NOT NULL PRIMARY KEY,"
                    + " kind SMALLINT NOT NULL, tx_id BIGINT NOT NULL,"
                    + " login VARCHAR(255) NOT NULL, stmt_id BIGINT, params " + dialect.inlineBinary() + ","
                    + " params_large " + dialect.binary() + ", outcome SMALLINT NOT NULL, sql_state VARCHAR(5),"
                    + " logged_at BIGINT NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS " + statements(id) + " (stmt_id BIGINT NOT NULL PRIMARY KEY,"
                    + " sql_text " + dialect.longText() + " NOT NULL, tables_written " + dialect.longText() + ")");
            c.commit();
            return id;
        } catch (SQLException e) {
            c.rollback();
            throw new RecoveryLogException(
                    "Cannot create the recovery log tables (prefix " + prefix + ") in " + url + ": " + e.getMessage()
                            + ". Check that user may create tables there.",
                    RecoveryLogException.SYSTEM_ERROR,
                    e);
        } finally {
            c.setAutoCommit(true);
        }
    }

    private void insertVersion(Connection c) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO " + meta + " (meta_key, meta_value) VALUES (?, ?)")) {
            ps.setString(1, VERSION_KEY);
            ps.setString(2, Integer.toString(VERSION));
            ps.executeUpdate();
        }
        c.commit();
    }

    /** The id of {@code vdb} in this store, registered on first use. */
    private int vdbId(Connection c, String vdb) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT vdb_id FROM " + vdbs + " WHERE name = ?")) {
            ps.setString(1, vdb);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return rs.getInt(1);
                }
            }
        }
        int id;
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT MAX(vdb_id) FROM " + vdbs)) {
            id = rs.next() ? rs.getInt(1) + 1 : 1;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + vdbs + " (name, vdb_id) VALUES (?, ?)")) {
            ps.setString(1, vdb);
            ps.setInt(2, id);
            ps.executeUpdate();
        }
        c.commit();
        return id;
    }

    private RecoveryLogException wrongVersion(String url, String found) {
        String what = newer(found)
                ? "it was written by a newer RAIDb. Run a controller of that version (or newer) on it,"
                        + " or point recoveryLog.url / tablePrefix at another store"
                : "it was written by an older RAIDb and this version does not convert it. Either run the older"
                        + " controller until every backend is enabled and no dump needs the log, then move the store"
                        + " aside (for the default H2 store, the <dataDir>/recovery-log directory) so that this one"
                        + " starts a new log; or point recoveryLog.url / tablePrefix at another store. A new log has"
                        + " no history: back up the backends (dumps) again after the switch";
        return new RecoveryLogException(
                "The recovery log in " + url + " (table " + meta + ") has schema version " + found
                        + "; this controller reads version " + VERSION + ": " + what + ".",
                RecoveryLogException.OBJECT_NOT_IN_PREREQUISITE_STATE);
    }

    private static boolean newer(String version) {
        try {
            return Integer.parseInt(version.trim()) > VERSION;
        } catch (NumberFormatException e) {
            return true; // not a version this code ever wrote
        }
    }

    /** The stored version, or null for a store without the log's tables. */
    private String storedVersion(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        try (PreparedStatement ps = c.prepareStatement("SELECT meta_value FROM " + meta + " WHERE meta_key = ?")) {
            ps.setString(1, VERSION_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException noTable) {
            // No meta table yet: a new store. (PostgreSQL aborts the transaction of a failed statement.)
            if (!auto) {
                c.rollback();
            }
            return null;
        }
    }
}
