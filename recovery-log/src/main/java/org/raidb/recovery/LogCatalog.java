package org.raidb.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The small tables beside the log: checkpoints, backend states and dumps of one virtual database.
 * Callers serialize access to the connection.
 */
final class LogCatalog {

    private final Connection c;
    private final LogSchema t;
    private final String vdb;

    LogCatalog(Connection connection, LogSchema schema, String vdb) {
        this.c = connection;
        this.t = schema;
        this.vdb = vdb;
    }

    // ---- checkpoints

    void insertCheckpoint(String name, long position, long scanStart, Instant at) throws SQLException {
        update(
                "INSERT INTO " + t.checkpoint
                        + " (vdb, name, log_position, scan_start, created_at) VALUES (?, ?, ?, ?, ?)",
                vdb,
                name,
                position,
                scanStart,
                at.toEpochMilli());
    }

    /** Where a replay from the checkpoint starts reading (fixed when it was taken). */
    OptionalLong checkpointScanStart(String name) throws SQLException {
        try (PreparedStatement ps =
                        prepare("SELECT scan_start FROM " + t.checkpoint + " WHERE vdb = ? AND name = ?", vdb, name);
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
        }
    }

    void insertApplied(String checkpointName, long position) throws SQLException {
        insertPosition(t.checkpointApplied, checkpointName, position);
    }

    void insertInDoubt(String checkpointName, long position) throws SQLException {
        insertPosition(t.checkpointInDoubt, checkpointName, position);
    }

    private void insertPosition(String table, String checkpointName, long position) throws SQLException {
        update(
                "INSERT INTO " + table + " (vdb, checkpoint_name, log_position) VALUES (?, ?, ?)",
                vdb,
                checkpointName,
                position);
    }

    /** Positions after the checkpoint that its backend already holds. */
    Set<Long> appliedAfter(String checkpointName) throws SQLException {
        return positions(t.checkpointApplied, checkpointName);
    }

    /** Positions after the checkpoint that its backend may hold: it failed while running them. */
    Set<Long> inDoubtAfter(String checkpointName) throws SQLException {
        return positions(t.checkpointInDoubt, checkpointName);
    }

    private Set<Long> positions(String table, String checkpointName) throws SQLException {
        Set<Long> positions = new HashSet<>();
        try (PreparedStatement ps = prepare(
                        "SELECT log_position FROM " + table + " WHERE vdb = ? AND checkpoint_name = ?",
                        vdb,
                        checkpointName);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                positions.add(rs.getLong(1));
            }
        }
        return positions;
    }

    OptionalLong checkpointPosition(String name) throws SQLException {
        try (PreparedStatement ps =
                        prepare("SELECT log_position FROM " + t.checkpoint + " WHERE vdb = ? AND name = ?", vdb, name);
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
        }
    }

    List<Checkpoint> checkpoints() throws SQLException {
        List<Checkpoint> all = new ArrayList<>();
        try (PreparedStatement ps = prepare(
                        "SELECT name, log_position, created_at FROM " + t.checkpoint
                                + " WHERE vdb = ? ORDER BY log_position, created_at, name",
                        vdb);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                all.add(new Checkpoint(rs.getString(1), rs.getLong(2), Instant.ofEpochMilli(rs.getLong(3))));
            }
        }
        return all;
    }

    int deleteCheckpointsBefore(long position) throws SQLException {
        for (String positions : List.of(t.checkpointApplied, t.checkpointInDoubt)) {
            update(
                    "DELETE FROM " + positions + " WHERE vdb = ? AND checkpoint_name IN (SELECT name FROM "
                            + t.checkpoint + " WHERE vdb = ? AND log_position < ?)",
                    vdb,
                    vdb,
                    position);
        }
        return update("DELETE FROM " + t.checkpoint + " WHERE vdb = ? AND log_position < ?", vdb, position);
    }

    // ---- backend states

    void saveBackendState(String backend, BackendStateRecord s) throws SQLException {
        // UPDATE then INSERT: portable where MERGE / ON CONFLICT / ON DUPLICATE KEY are not.
        int updated = update(
                "UPDATE " + t.backendState + " SET state = ?, last_checkpoint = ?, updated_at = ?"
                        + " WHERE vdb = ? AND backend = ?",
                s.state().name(),
                s.lastCheckpoint(),
                s.updatedAt().toEpochMilli(),
                vdb,
                backend);
        if (updated == 0) {
            update(
                    "INSERT INTO " + t.backendState
                            + " (vdb, backend, state, last_checkpoint, updated_at) VALUES (?, ?, ?, ?, ?)",
                    vdb,
                    backend,
                    s.state().name(),
                    s.lastCheckpoint(),
                    s.updatedAt().toEpochMilli());
        }
        // The cause always follows the state: a state saved without one (an enabled backend) forgets the old one.
        update("DELETE FROM " + t.backendCause + " WHERE vdb = ? AND backend = ?", vdb, backend);
        if (s.cause() != null) {
            update(
                    "INSERT INTO " + t.backendCause + " (vdb, backend, kind, reason) VALUES (?, ?, ?, ?)",
                    vdb,
                    backend,
                    s.cause().kind().name(),
                    s.cause().reason());
        }
    }

    Map<String, BackendStateRecord> backendStates() throws SQLException {
        Map<String, DisableCause> causes = new LinkedHashMap<>();
        try (PreparedStatement ps =
                        prepare("SELECT backend, kind, reason FROM " + t.backendCause + " WHERE vdb = ?", vdb);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                causes.put(
                        rs.getString(1), new DisableCause(DisableCause.Kind.valueOf(rs.getString(2)), rs.getString(3)));
            }
        }
        Map<String, BackendStateRecord> states = new LinkedHashMap<>();
        try (PreparedStatement ps = prepare(
                        "SELECT backend, state, last_checkpoint, updated_at FROM " + t.backendState
                                + " WHERE vdb = ? ORDER BY backend",
                        vdb);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String backend = rs.getString(1);
                states.put(
                        backend,
                        new BackendStateRecord(
                                RecordedBackendState.valueOf(rs.getString(2)),
                                rs.getString(3),
                                Instant.ofEpochMilli(rs.getLong(4)),
                                causes.get(backend)));
            }
        }
        return states;
    }

    // ---- dumps

    void insertDump(DumpRecord d) throws SQLException {
        update(
                "INSERT INTO " + t.dump
                        + " (vdb, name, backend, checkpoint_name, dump_format, dump_path, dumped_at, size_bytes)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                vdb,
                d.name(),
                d.backend(),
                d.checkpoint(),
                d.format(),
                d.path(),
                d.date().toEpochMilli(),
                d.sizeBytes());
    }

    List<DumpRecord> dumps(String onlyName) throws SQLException {
        String sql = "SELECT name, backend, checkpoint_name, dump_format, dump_path, dumped_at, size_bytes FROM "
                + t.dump + " WHERE vdb = ?" + (onlyName == null ? "" : " AND name = ?") + " ORDER BY dumped_at, name";
        List<DumpRecord> all = new ArrayList<>();
        try (PreparedStatement ps = onlyName == null ? prepare(sql, vdb) : prepare(sql, vdb, onlyName);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                all.add(new DumpRecord(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        Instant.ofEpochMilli(rs.getLong(6)),
                        rs.getLong(7),
                        vdb));
            }
        }
        return all;
    }

    Optional<DumpRecord> dump(String name) throws SQLException {
        return dumps(name).stream().findFirst();
    }

    boolean deleteDump(String name) throws SQLException {
        return update("DELETE FROM " + t.dump + " WHERE vdb = ? AND name = ?", vdb, name) > 0;
    }

    // ---- helpers

    int update(String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = prepare(sql, args)) {
            return ps.executeUpdate();
        }
    }

    long queryLong(String sql, long ifNull, Object... args) throws SQLException {
        try (PreparedStatement ps = prepare(sql, args);
                ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                long v = rs.getLong(1);
                return rs.wasNull() ? ifNull : v;
            }
            return ifNull;
        }
    }

    PreparedStatement prepare(String sql, Object... args) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
        } catch (SQLException e) {
            ps.close();
            throw e;
        }
        return ps;
    }
}
