package org.raidb.controller.defaults;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.controller.backend.CatalogReads;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.driver.protocol.SqlStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one virtual database's backends compute by themselves on a write: the tables with volatile
 * columns and the triggers calling non-deterministic built-ins. Read from each backend's catalogue
 * when it starts or joins, and kept current by the DDL that succeeds; never read per statement.
 * Under partial replication a table has the same definition on each of its holders, so one map
 * serves every backend.
 *
 * <p>PostgreSQL's DDL belongs to its transaction: what a transaction changed is seen by that
 * transaction alone until it commits, and forgotten if it rolls back. MariaDB's DDL commits at
 * once, whatever transaction it was sent in.
 *
 * <p>Lookups are lock-free (every write asks); changes are synchronized.
 */
public final class VolatileCatalog {
    private static final Logger log = LoggerFactory.getLogger(VolatileCatalog.class);

    private final String virtualDatabase;
    private final boolean refuseVolatileTriggers;
    private final Map<String, TableColumns> tables = new ConcurrentHashMap<>();
    private final Map<String, List<VolatileTrigger>> triggers = new ConcurrentHashMap<>();
    private final Map<Long, View> transactions = new ConcurrentHashMap<>();
    private final CatalogReads reads = new CatalogReads(true);
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    /** @param refuseVolatileTriggers {@code <determinism onVolatileTrigger="refuse"/>} */
    public VolatileCatalog(String virtualDatabase, boolean refuseVolatileTriggers) {
        this.virtualDatabase = virtualDatabase;
        this.refuseVolatileTriggers = refuseVolatileTriggers;
    }

    /**
     * Reads the catalogue of each enabled backend not read since it was last enabled: at start, and
     * after a backend joined (the only holder of some tables may have been down until then). What is
     * known already stays: DDL kept it current.
     */
    public void readNewlyEnabled(List<DatabaseBackend> backends) {
        reads.newlyEnabled(
                backends,
                c -> merge(CatalogReader.of(c).read(c, null)),
                (b, e) -> log.error(
                        "virtual database {}: cannot read the column defaults and triggers of backend {} ({}); inserts that"
                                + " rely on its volatile defaults may store different values on each backend",
                        virtualDatabase,
                        b.name(),
                        e.getMessage()));
    }

    /** The table's volatile columns as {@code transaction} sees them (null in auto-commit), or null when it has none. */
    public TableColumns table(String table, Long transaction) {
        View v = transaction == null ? null : transactions.get(transaction);
        if (v != null) {
            synchronized (v) {
                Optional<TableColumns> own = lookup(v.tables, table);
                if (own != null || v.complete) {
                    return own == null ? null : own.orElse(null);
                }
            }
        }
        return lookup(tables, table);
    }

    /** Whether no table has volatile columns: writes then need no look at their text. */
    public boolean noVolatileColumns(Long transaction) {
        return tables.isEmpty() && (transaction == null || !transactions.containsKey(transaction));
    }

    /**
     * With {@code onVolatileTrigger="refuse"}, a write to a table with a volatile trigger fails
     * (0A000) before it runs anywhere.
     */
    public void refuseIfTriggered(Collection<String> tablesWritten, Long transaction) throws SQLException {
        if (!refuseVolatileTriggers) {
            return;
        }
        for (String t : tablesWritten) {
            List<VolatileTrigger> found = triggers(t, transaction);
            if (found != null && !found.isEmpty()) {
                VolatileTrigger first = found.get(0);
                throw new SQLException(
                        "writes to table " + t + " are refused: " + first.describe() + ", which every backend would"
                                + " compute for itself, so their copies would differ. Have the application pass the value instead of the"
                                + " trigger computing it, or set <determinism onVolatileTrigger=\"warn\"/> to accept the difference",
                        SqlStates.FEATURE_NOT_SUPPORTED);
            }
        }
    }

    private List<VolatileTrigger> triggers(String table, Long transaction) {
        View v = transaction == null ? null : transactions.get(transaction);
        if (v != null) {
            synchronized (v) {
                Optional<List<VolatileTrigger>> own = lookup(v.triggers, table);
                if (own != null || v.complete) {
                    return own == null ? null : own.orElse(null);
                }
            }
        }
        return lookup(triggers, table);
    }

    /**
     * DDL succeeded on {@code c}: reads, on that connection, what it may have changed. In a PostgreSQL
     * transaction the result is the transaction's own until it commits.
     *
     * @param changed the tables the DDL named, or null when it may have changed any
     */
    public void readAfterDdl(Connection c, Collection<String> changed, Long transaction) throws SQLException {
        CatalogReader reader = CatalogReader.of(c);
        CatalogSnapshot snapshot = reader.read(c, changed);
        if (transaction != null && reader.transactionalDdl() && !c.getAutoCommit()) {
            View v = transactions.computeIfAbsent(transaction, id -> new View());
            synchronized (v) {
                v.apply(snapshot, changed);
            }
            warnAboutNew(snapshot.triggers());
        } else {
            replace(snapshot, changed);
        }
    }

    /**
     * A DDL statement failed where it had succeeded on some backend, which read its catalogue then:
     * the tables are read again from a backend that holds them and is still enabled.
     */
    public void readAgain(List<DatabaseBackend> backends, Collection<String> changed) {
        reads.fromOneHolding(
                backends,
                changed,
                c -> replace(CatalogReader.of(c).read(c, changed), changed),
                (b, e) -> log.warn(
                        "virtual database {}: cannot read the column defaults of {} again from backend {}: {}",
                        virtualDatabase,
                        changed == null ? "every table" : changed,
                        b.name(),
                        e.getMessage()));
    }

    /**
     * The transaction is about to commit: what its DDL changed becomes what every session sees, before
     * its locks let another session write the tables. Returns what to do if the commit fails after all:
     * read those tables again from {@code backends}.
     */
    public Runnable committing(long transaction, List<DatabaseBackend> backends) {
        View v = transactions.remove(transaction);
        if (v == null) {
            return () -> {};
        }
        Set<String> merged;
        synchronized (this) {
            synchronized (v) {
                if (v.complete) {
                    tables.clear();
                    triggers.clear();
                }
                v.tables.forEach((t, columns) -> put(tables, t, columns));
                v.triggers.forEach((t, list) -> put(triggers, t, list));
                merged = v.complete ? null : new HashSet<>(v.tables.keySet());
            }
        }
        return () -> readAgain(backends, merged);
    }

    /** The transaction ended without committing (or after): its own view is dropped. */
    public void ended(long transaction) {
        transactions.remove(transaction);
    }

    synchronized void merge(CatalogSnapshot snapshot) {
        snapshot.tables().forEach(tables::putIfAbsent);
        byTable(snapshot.triggers()).forEach(triggers::putIfAbsent);
        warnAboutNew(snapshot.triggers());
    }

    private synchronized void replace(CatalogSnapshot snapshot, Collection<String> changed) {
        if (changed == null) {
            tables.clear();
            triggers.clear();
        } else {
            for (String t : changed) {
                tables.remove(t);
                tables.remove(t.toLowerCase(Locale.ROOT));
                triggers.remove(t);
                triggers.remove(t.toLowerCase(Locale.ROOT));
            }
        }
        tables.putAll(snapshot.tables());
        triggers.putAll(byTable(snapshot.triggers()));
        warnAboutNew(snapshot.triggers());
    }

    /** One warning per trigger, when the controller first learns of it. */
    private void warnAboutNew(List<VolatileTrigger> found) {
        for (VolatileTrigger t : found) {
            if (warned.add(t.table() + "." + t.name())) {
                log.warn(
                        "virtual database {}: {}: each backend computes its own value when it fires, so the copies of table {} may"
                                + " differ; have the application pass the value instead{}",
                        virtualDatabase,
                        t.describe(),
                        t.table(),
                        refuseVolatileTriggers
                                ? " (writes to the table are refused)"
                                : ", or set <determinism onVolatileTrigger=\"refuse\"/>");
            }
        }
    }

    private static Map<String, List<VolatileTrigger>> byTable(List<VolatileTrigger> found) {
        Map<String, List<VolatileTrigger>> out = new HashMap<>();
        found.forEach(
                t -> out.computeIfAbsent(t.table(), k -> new ArrayList<>()).add(t));
        return out;
    }

    private static <T> T lookup(Map<String, T> map, String table) {
        T found = map.get(table);
        return found != null ? found : map.get(table.toLowerCase(Locale.ROOT));
    }

    private static <T> void put(Map<String, T> map, String table, Optional<T> value) {
        if (value.isPresent()) {
            map.put(table, value.get());
        } else {
            map.remove(table);
        }
    }

    /**
     * A PostgreSQL transaction's own view of the tables its DDL touched: an empty value means "none
     * there"; {@code complete} means DDL of unknown reach was read in full, so the shared maps are
     * not consulted.
     */
    private static final class View {
        final Map<String, Optional<TableColumns>> tables = new HashMap<>();
        final Map<String, Optional<List<VolatileTrigger>>> triggers = new HashMap<>();
        boolean complete;

        void apply(CatalogSnapshot snapshot, Collection<String> changed) {
            if (changed == null) {
                tables.clear();
                triggers.clear();
                complete = true;
            } else {
                changed.forEach(t -> {
                    tables.put(t, Optional.empty());
                    triggers.put(t, Optional.empty());
                });
            }
            snapshot.tables().forEach((t, columns) -> tables.put(t, Optional.of(columns)));
            byTable(snapshot.triggers()).forEach((t, list) -> triggers.put(t, Optional.of(list)));
        }
    }
}
