package org.raidb.controller.recovery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.raidb.controller.analysis.SchemaChange;
import org.raidb.controller.analysis.SqlAnalyzer;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.result.BackendValues;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.LogEntry;
import org.raidb.recovery.Outcome;
import org.raidb.recovery.RecoveryLog;
import org.raidb.recovery.ReplayItem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies replay items to one backend that is out of the array, on direct connections of its own
 * (one per login, as the log recorded it). Consecutive items of one login are applied in one backend
 * transaction: the backend serves nobody meanwhile, and one commit per group instead of per item is
 * what makes replay several times faster than the clients' own writes. A group that fails is
 * rolled back and applied item by item, so that the failing item is named.
 *
 * <p>Items in doubt (the backend's connection broke while it ran them, so it may hold them already)
 * are applied alone; one that fails is taken as already held. Either way the tables it writes are
 * to be compared with an in-step backend before this one joins ({@link #tablesToVerify}): an item
 * the backend held that succeeds again, or one it did not hold that fails, shows there.
 */
final class LogReplayer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LogReplayer.class);
    private static final int GROUP_ITEMS = 200;

    private final DatabaseBackend backend;
    private final SqlAnalyzer analyzer;
    private final Map<String, Connection> connections = new HashMap<>();
    private final Set<Long> inDoubt;
    private final Set<String> tablesToVerify = new TreeSet<>();
    private final List<Long> inDoubtReplayed = new ArrayList<>();
    private boolean verifyEveryTable;
    private long entriesApplied;
    /** The log position up to which the backend holds every item handed to {@link #apply}; -1 before any. */
    private long appliedThrough = -1;
    /** Items committed after the first item in doubt was replayed (see {@link ShortReplay}). */
    private final List<Long> appliedAfterDoubt = new ArrayList<>();
    /** Items whose commit the backend may or may not have made: its connection broke while they ran. */
    private final List<Long> uncertain = new ArrayList<>();

    /** @param inDoubt positions of items the backend may hold already (its checkpoint's) */
    LogReplayer(DatabaseBackend backend, SqlAnalyzer analyzer, Set<Long> inDoubt) {
        this.backend = backend;
        this.analyzer = analyzer;
        this.inDoubt = Set.copyOf(inDoubt);
    }

    /** Applies the items in order; returns the number of log entries they held (those left out count as done). */
    long apply(List<ReplayItem> logged) throws SQLException {
        List<ReplayItem> items = forThisBackend(logged);
        long before = entriesApplied - (entries(logged) - entries(items));
        int start = 0;
        while (start < items.size()) {
            if (inDoubt.contains(items.get(start).orderPosition())) {
                applyInDoubt(items.get(start));
                start++;
                continue;
            }
            String login = items.get(start).login();
            int end = start;
            while (end < items.size()
                    && end - start < GROUP_ITEMS
                    && items.get(end).login().equals(login)
                    && !inDoubt.contains(items.get(end).orderPosition())) {
                end++;
            }
            applyGroup(items.subList(start, end));
            start = end;
        }
        if (!logged.isEmpty()) {
            appliedThrough = logged.get(logged.size() - 1).orderPosition(); // the items left out need nothing here
        }
        return entriesApplied - before;
    }

    /** Lower-cased names of the tables the items in doubt write. */
    Set<String> tablesToVerify() {
        return Set.copyOf(tablesToVerify);
    }

    /** Whether every table must be compared (an item in doubt named no table). */
    boolean mustVerifyEveryTable() {
        return verifyEveryTable;
    }

    /** Positions of the items in doubt this replay met. */
    List<Long> inDoubtReplayed() {
        return List.copyOf(inDoubtReplayed);
    }

    /** What the backend holds so far, for a replay that ends short. */
    ShortReplay.Applied applied() {
        return new ShortReplay.Applied(appliedThrough, inDoubtReplayed, appliedAfterDoubt, uncertain);
    }

    /**
     * An item the backend may hold already: applied in a transaction of its own; if it fails there
     * (a key already present, say), it is taken as held and rolled back. The comparison before the
     * backend joins decides.
     */
    private void applyInDoubt(ReplayItem item) throws SQLException {
        inDoubtReplayed.add(item.orderPosition());
        for (LogEntry e : item.statements()) {
            if (e.tablesWritten().isEmpty()) {
                verifyEveryTable = true;
            }
            e.tablesWritten().forEach(t -> tablesToVerify.add(unqualified(t)));
        }
        Connection c = connection(item.login());
        c.setAutoCommit(false);
        try {
            run(c, item, true);
            c.commit();
            log.info(
                    "replay on {}: position {} was running there when it failed; applied now",
                    backend.name(),
                    item.orderPosition());
        } catch (SQLException e) {
            c.rollback();
            if (FailureClassifier.isBackendFailure(e)) {
                throw e;
            }
            log.warn(
                    "replay on {}: position {} was running there when it failed and fails now ({}): taken as applied then",
                    backend.name(),
                    item.orderPosition(),
                    e.getMessage());
        }
        entriesApplied += item.statements().size();
        appliedThrough = item.orderPosition();
    }

    /**
     * The statements of each item that the write path would have sent to this backend had it been
     * enabled: with partial replication, those writing a table it holds (or naming no table: they went
     * to every backend). A table created while it was away was placed on others, so its writes are left
     * out; a table it dropped, from then on too. The backend's tables follow the DDL as it is read,
     * before it runs: if the replay fails, the backend stays disabled and its tables are read again on
     * the next enable.
     */
    private List<ReplayItem> forThisBackend(List<ReplayItem> items) {
        List<ReplayItem> out = new ArrayList<>(items.size());
        for (ReplayItem item : items) {
            List<LogEntry> kept = new ArrayList<>(item.statements().size());
            for (LogEntry e : item.statements()) {
                if (e.tablesWritten().isEmpty() || e.tablesWritten().stream().anyMatch(backend::holdsTable)) {
                    kept.add(e);
                    SchemaChange change =
                            e.sql() == null ? null : analyzer.analyze(e.sql()).schemaChange();
                    if (change != null) {
                        backend.tables().apply(change);
                    }
                }
            }
            if (kept.size() == item.statements().size()) {
                out.add(item);
            } else if (!kept.isEmpty()) {
                out.add(new ReplayItem(item.orderPosition(), item.transactionId(), item.login(), List.copyOf(kept)));
            }
        }
        return out;
    }

    private void committed(ReplayItem item) {
        entriesApplied += item.statements().size();
        appliedThrough = item.orderPosition();
        if (!inDoubtReplayed.isEmpty()) {
            appliedAfterDoubt.add(item.orderPosition());
        }
    }

    private static long entries(List<ReplayItem> items) {
        long n = 0;
        for (ReplayItem i : items) {
            n += i.statements().size();
        }
        return n;
    }

    private void applyGroup(List<ReplayItem> group) throws SQLException {
        Connection c = connection(group.get(0).login());
        c.setAutoCommit(false);
        try {
            runBatched(c, group);
            c.commit();
            group.forEach(this::committed);
        } catch (SQLException e) {
            if (FailureClassifier.isBackendFailure(e)) {
                group.forEach(i -> uncertain.add(i.orderPosition())); // the commit may have been made, its answer lost
                throw e;
            }
            c.rollback();
            if (group.size() == 1) {
                applyAlone(c, group.get(0));
                return;
            }
            for (ReplayItem item : group) {
                applyAlone(c, item);
            }
        }
    }

    /** One item in a transaction of its own; a write whose outcome was never recorded may fail. */
    private void applyAlone(Connection c, ReplayItem item) throws SQLException {
        try {
            run(c, item, true);
            c.commit();
            committed(item);
        } catch (SQLException e) {
            if (FailureClassifier.isBackendFailure(e)) {
                uncertain.add(item.orderPosition());
            } else {
                c.rollback();
            }
            throw new SQLException(
                    "replaying log position " + item.orderPosition() + " on backend " + backend.name()
                            + " failed (" + e.getMessage() + "): " + describe(item)
                            + ". The backend stays disabled; restore it from a"
                            + " dump, or compare it with the others",
                    e.getSQLState() == null ? SqlStates.INTERNAL_ERROR : e.getSQLState(),
                    e);
        }
    }

    /**
     * Runs a group's statements in order, sending consecutive executions of one prepared text as one
     * JDBC batch: the driver pipelines them, so a run of similar writes costs one round trip.
     */
    private static void runBatched(Connection c, List<ReplayItem> group) throws SQLException {
        PreparedStatement open = null;
        String openSql = null;
        try {
            for (ReplayItem item : group) {
                for (LogEntry e : item.statements()) {
                    List<Object> params = e.parameters();
                    if (open != null && (params == null || !e.sql().equals(openSql))) {
                        open.executeBatch();
                        open.close();
                        open = null;
                    }
                    if (params == null) {
                        execute(c, e);
                        continue;
                    }
                    if (open == null) {
                        open = c.prepareStatement(e.sql());
                        openSql = e.sql();
                    }
                    for (int i = 0; i < params.size(); i++) {
                        BackendValues.bind(open, i + 1, params.get(i));
                    }
                    open.addBatch();
                }
            }
            if (open != null) {
                open.executeBatch();
            }
        } finally {
            if (open != null) {
                open.close();
            }
        }
    }

    private void run(Connection c, ReplayItem item, boolean tolerateUnrecorded) throws SQLException {
        for (LogEntry e : item.statements()) {
            if (!tolerateUnrecorded || e.outcome().status() != Outcome.Status.PENDING) {
                execute(c, e);
                continue;
            }
            // Logged before it ran and its outcome never recorded (the controller stopped): if it failed
            // everywhere it fails here too, and skipping it is what the other backends did.
            try (Statement sp = c.createStatement()) {
                sp.execute("SAVEPOINT raidb_replay");
            }
            try {
                execute(c, e);
            } catch (SQLException failed) {
                try (Statement sp = c.createStatement()) {
                    sp.execute("ROLLBACK TO SAVEPOINT raidb_replay");
                }
                log.warn(
                        "replay on {}: position {} failed as it may have on every backend ({}); skipped",
                        backend.name(),
                        e.position(),
                        failed.getMessage());
            }
        }
    }

    private static void execute(Connection c, LogEntry e) throws SQLException {
        List<Object> params = e.parameters();
        if (params == null) {
            try (Statement st = c.createStatement()) {
                st.execute(e.sql());
            }
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(e.sql())) {
            for (int i = 0; i < params.size(); i++) {
                BackendValues.bind(ps, i + 1, params.get(i));
            }
            ps.execute();
        }
    }

    private Connection connection(String login) throws SQLException {
        String virtualUser = RecoveryLog.RECOVERY_LOGIN.equals(login) ? null : login;
        Connection c = connections.get(login);
        if (c == null) {
            c = backend.directConnection(virtualUser);
            connections.put(login, c);
        }
        return c;
    }

    /** A table name as the checksums key it: lower case, without schema or quotes. */
    private static String unqualified(String table) {
        return table.substring(table.lastIndexOf('.') + 1)
                .replace("\"", "")
                .replace("`", "")
                .toLowerCase(Locale.ROOT);
    }

    private static String describe(ReplayItem item) {
        List<String> sql = new ArrayList<>();
        for (LogEntry e : item.statements()) {
            sql.add(e.sql());
            if (sql.size() == 3) {
                sql.add("…");
                break;
            }
        }
        return (item.isTransaction() ? "transaction " + item.transactionId() + " " : "") + sql;
    }

    @Override
    public void close() {
        for (Connection c : connections.values()) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the backend is out of the array; nothing to undo
            }
        }
        connections.clear();
    }
}
