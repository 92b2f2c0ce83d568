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
 * <p>Several virtual databases may share a store: every table carries a {@code vdb} column that
 * leads its primary key, so that one set of tables serves them all and a store holds one schema
 * version. The meta table is shared by all of them.
 */
final class LogSchema {

    /** Bumped whenever a table changes shape; a store with another version is refused. */
    static final int VERSION = 1;

    private static final String VERSION_KEY = "schema_version";

    final String prefix;
    final String meta;
    final String log;
    final String checkpoint;
    final String checkpointApplied;
    final String checkpointInDoubt;
    final String backendState;
    final String backendCause;
    final String dump;

    LogSchema(String prefix) {
        this.prefix = prefix;
        meta = prefix + "meta";
        log = prefix + "log";
        checkpoint = prefix + "checkpoint";
        checkpointApplied = prefix + "checkpoint_applied";
        checkpointInDoubt = prefix + "checkpoint_in_doubt";
        backendState = prefix + "backend_state";
        backendCause = prefix + "backend_cause";
        dump = prefix + "dump";
    }

    /** Creates the missing tables, then checks (or records) the schema version. */
    void createOrCheck(Connection c, StoreDialect dialect, String url) throws SQLException {
        List<String> ddl = List.of(
                "CREATE TABLE IF NOT EXISTS " + meta
                        + " (meta_key VARCHAR(255) NOT NULL PRIMARY KEY, meta_value VARCHAR(255) NOT NULL)",
                "CREATE TABLE IF NOT EXISTS " + log + " (vdb VARCHAR(128) NOT NULL, log_position BIGINT NOT NULL,"
                        + " kind VARCHAR(24) NOT NULL, tx_id BIGINT NOT NULL, login VARCHAR(255) NOT NULL,"
                        + " sql_text " + dialect.longText() + ", params " + dialect.binary() + ","
                        + " tables_written " + dialect.longText()
                        + ", outcome VARCHAR(8) NOT NULL, sql_state VARCHAR(5),"
                        + " logged_at BIGINT NOT NULL, PRIMARY KEY (vdb, log_position))",
                // Replay and purge look for the entries of one transaction.
                "CREATE INDEX IF NOT EXISTS " + log + "_tx ON " + log + " (vdb, tx_id)",
                "CREATE TABLE IF NOT EXISTS " + checkpoint + " (vdb VARCHAR(128) NOT NULL, name VARCHAR(255) NOT NULL,"
                        + " log_position BIGINT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (vdb, name))",
                // Items after a checkpoint that its backend already holds (a backend that failed mid-workload
                // had finished some later, non-conflicting writes before it stopped).
                "CREATE TABLE IF NOT EXISTS " + checkpointApplied + " (vdb VARCHAR(128) NOT NULL,"
                        + " checkpoint_name VARCHAR(255) NOT NULL, log_position BIGINT NOT NULL,"
                        + " PRIMARY KEY (vdb, checkpoint_name, log_position))",
                // Items after a checkpoint that its backend may or may not hold: its connection broke while it
                // ran them (the server may have committed before the answer was lost). A new table, not a new
                // column, so that stores made before it keep their schema version.
                "CREATE TABLE IF NOT EXISTS " + checkpointInDoubt + " (vdb VARCHAR(128) NOT NULL,"
                        + " checkpoint_name VARCHAR(255) NOT NULL, log_position BIGINT NOT NULL,"
                        + " PRIMARY KEY (vdb, checkpoint_name, log_position))",
                "CREATE TABLE IF NOT EXISTS " + backendState + " (vdb VARCHAR(128) NOT NULL,"
                        + " backend VARCHAR(255) NOT NULL, state VARCHAR(16) NOT NULL, last_checkpoint VARCHAR(255),"
                        + " updated_at BIGINT NOT NULL, PRIMARY KEY (vdb, backend))",
                // Why a backend is out (failure, divergence, administrator): enable refuses a diverged one, also after
                // a
                // restart. A table of its own, like the in-doubt one, so that older stores keep their schema version.
                "CREATE TABLE IF NOT EXISTS " + backendCause + " (vdb VARCHAR(128) NOT NULL,"
                        + " backend VARCHAR(255) NOT NULL, kind VARCHAR(16) NOT NULL, reason " + dialect.longText()
                        + ","
                        + " PRIMARY KEY (vdb, backend))",
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
        } catch (SQLException e) {
            c.rollback();
            throw new RecoveryLogException(
                    "Cannot create the recovery log tables (prefix " + prefix + ") in " + url + ": " + e.getMessage()
                            + ". Check that user may create tables there.",
                    RecoveryLogException.SYSTEM_ERROR,
                    e);
        }
        String found = storedVersion(c);
        if (found == null) {
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO " + meta + " (meta_key, meta_value) VALUES (?, ?)")) {
                ps.setString(1, VERSION_KEY);
                ps.setString(2, Integer.toString(VERSION));
                ps.executeUpdate();
            }
            c.commit();
        } else if (!found.equals(Integer.toString(VERSION))) {
            throw new RecoveryLogException(
                    "The recovery log in " + url + " (table " + meta + ") has schema version "
                            + found + "; this controller reads version " + VERSION
                            + ". Use a controller of the matching version,"
                            + " or point recoveryLog.url / tablePrefix at another store.",
                    RecoveryLogException.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        c.setAutoCommit(true);
    }

    private String storedVersion(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT meta_value FROM " + meta + " WHERE meta_key = ?")) {
            ps.setString(1, VERSION_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
