package org.raidb.controller.keys;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.controller.backend.CatalogReads;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.keys.TableKeys.ForeignKey;
import org.raidb.controller.tree.ChildControllers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link TableKeys} of one virtual database's tables, read from each backend's catalogue when
 * it starts or joins and kept current by the DDL that succeeds; never read per statement. Under
 * partial replication a table has the same definition on each of its holders, so one map serves
 * every backend.
 *
 * <p>Unlike {@code defaults.VolatileCatalog}, it keeps no per-transaction view of PostgreSQL's
 * transactional DDL: DDL holds its tables' whole-table class (or every class) until its transaction
 * ends, so no other transaction writes a table while its facts here may be ahead of what it sees.
 * What DDL read inside a transaction is read again once the transaction has ended everywhere (it may
 * have rolled back), before its classes are released.
 *
 * <p>Lookups are lock-free (every write asks); changes are synchronized.
 */
public final class KeyCatalog {
    private static final Logger log = LoggerFactory.getLogger(KeyCatalog.class);

    private final String virtualDatabase;
    private final Map<String, TableKeys> tables = new ConcurrentHashMap<>();
    private final CatalogReads reads = new CatalogReads(false);
    /** Per transaction, the tables its DDL read (an empty set standing for every table), to read again at its end. */
    private final Map<Long, Set<String>> readInTransaction = new ConcurrentHashMap<>();
    /** Stands for every table in {@link #readInTransaction}; compared by identity. */
    private static final Set<String> EVERY_TABLE = java.util.Collections.unmodifiableSet(new HashSet<>());

    private volatile String schema;
    /** Counts the changes of {@link #tables}: claims worked out from an older state are worked out again. */
    private volatile long version;

    public KeyCatalog(String virtualDatabase) {
        this.virtualDatabase = virtualDatabase;
    }

    /**
     * Reads the catalogue of each enabled backend not read since it was last enabled: at start, and
     * after a backend joined (the only holder of some tables may have been down until then). What is
     * known already stays: DDL kept it current.
     */
    public void readNewlyEnabled(List<DatabaseBackend> backends) {
        reads.newlyEnabled(
                backends,
                c -> {
                    KeyReader reader = KeyReader.of(c);
                    if (reader != null) {
                        merge(reader.read(c, null));
                    }
                },
                (b, e) -> log.warn(
                        "virtual database {}: cannot read the keys of backend {}'s tables ({}); writes of the tables it"
                                + " alone holds conflict with their whole table",
                        virtualDatabase,
                        b.name(),
                        e.getMessage()));
    }

    /** Changes with every change of what the catalogue holds. */
    public long version() {
        return version;
    }

    /**
     * The facts of a table as a statement names it, or null when unknown (a view, a table of another
     * schema, a product without a reader): the statement then conflicts with the whole table.
     *
     * @param statementSchema the schema the statement qualifies the table with, or null
     */
    public TableKeys table(String name, String statementSchema) {
        if (statementSchema != null && !statementSchema.equalsIgnoreCase(String.valueOf(schema))) {
            return null;
        }
        TableKeys t = tables.get(name);
        if (t == null) {
            t = tables.get(name.toLowerCase(Locale.ROOT));
            return t != null && t.caseInsensitive() ? t : null;
        }
        return t;
    }

    /**
     * DDL succeeded on {@code c}: reads on that connection what it may have changed. Inside a
     * transaction, what it read is read again when the transaction ends ({@link #transactionEnded}).
     *
     * @param changed the tables the DDL named, or null when it may have changed any
     */
    public void readAfterDdl(Connection c, Collection<String> changed, Long transaction) throws SQLException {
        if (ChildControllers.reached(c)) {
            return; // a child controller's catalogue is one leaf's: its tables conflict whole here
        }
        KeyReader reader = KeyReader.of(c);
        if (reader == null) {
            return;
        }
        replace(reader.read(c, changed), changed);
        if (transaction != null) {
            readInTransaction.merge(
                    transaction, changed == null ? EVERY_TABLE : new HashSet<>(changed), KeyCatalog::union);
        }
    }

    /**
     * A transaction ended on every backend: the tables its DDL changed are read again from an enabled
     * backend, committed or rolled back as they now are.
     */
    public void transactionEnded(long transaction, List<DatabaseBackend> backends) {
        Set<String> changed = readInTransaction.remove(transaction);
        if (changed != null) {
            readAgain(backends, changed == EVERY_TABLE ? null : changed);
        }
    }

    /**
     * The tables are read again from an enabled backend holding them: DDL failed where it had
     * succeeded on some backend, or its transaction ended.
     */
    public void readAgain(List<DatabaseBackend> backends, Collection<String> changed) {
        boolean read = reads.fromOneHolding(
                backends,
                changed,
                c -> {
                    KeyReader reader = KeyReader.of(c);
                    if (reader != null) {
                        replace(reader.read(c, changed), changed);
                    }
                },
                (b, e) -> log.warn(
                        "virtual database {}: cannot read the keys of {} again from backend {}: {}",
                        virtualDatabase,
                        changed == null ? "every table" : changed,
                        b.name(),
                        e.getMessage()));
        if (!read) {
            forget(changed); // no backend could tell: writes of these tables conflict with the whole table until one
            // can
        }
    }

    synchronized void merge(KeyReader.Snapshot snapshot) {
        version++;
        schema = snapshot.schema();
        snapshot.tables().forEach(tables::putIfAbsent);
    }

    private synchronized void replace(KeyReader.Snapshot snapshot, Collection<String> changed) {
        version++;
        schema = snapshot.schema();
        forget(changed);
        tables.putAll(snapshot.tables());
        // A new foreign key seen from its child: the parent, not read now, must know it is referenced.
        for (TableKeys t : snapshot.tables().values()) {
            for (ForeignKey fk : t.references()) {
                TableKeys parent = tables.get(fk.parent());
                if (parent != null
                        && !snapshot.tables().containsKey(fk.parent())
                        && !parent.referencedBy().contains(fk)) {
                    List<ForeignKey> referencedBy = new ArrayList<>(parent.referencedBy());
                    referencedBy.add(fk);
                    tables.put(
                            fk.parent(),
                            new TableKeys(
                                    parent.table(),
                                    parent.columns(),
                                    parent.uniqueIndexes(),
                                    parent.references(),
                                    referencedBy,
                                    parent.triggers(),
                                    parent.caseInsensitive()));
                }
            }
        }
    }

    /** The tables are not known any more: writes of them conflict with the whole table until they are read. */
    public synchronized void forget(Collection<String> changed) {
        version++;
        if (changed == null) {
            tables.clear();
            return;
        }
        for (String t : changed) {
            tables.remove(t);
            tables.remove(t.toLowerCase(Locale.ROOT));
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        if (a == EVERY_TABLE || b == EVERY_TABLE) {
            return EVERY_TABLE;
        }
        Set<String> out = new HashSet<>(a);
        out.addAll(b);
        return out;
    }
}
