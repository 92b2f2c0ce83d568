package org.raidb.controller.backend;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.controller.analysis.IdentifierLength;
import org.raidb.controller.analysis.SchemaChange;

/**
 * The tables (views, sequences) one backend holds, which partial replication routes by, and those of
 * them that are disabled there. Names are lower-case, unqualified, and cut as the backends cut them
 * (PostgreSQL keeps 63 bytes). Given in the configuration
 * ({@code <backend><table name="…"/></backend>}) or read from the backend's current schema when it
 * starts or is enabled; either way kept current by the DDL that succeeds on the backend.
 *
 * <p>Reads are lock-free (routing asks for every request); changes come from DDL and failures.
 */
public final class BackendTables {
    /** What DatabaseMetaData.getTables is asked for: what a statement can name as a table. */
    private static final String[] TABLE_TYPES = {
        "TABLE",
        "VIEW",
        "SEQUENCE",
        "PARTITIONED TABLE",
        "MATERIALIZED VIEW",
        "FOREIGN TABLE",
        "BASE TABLE",
        "SYSTEM VERSIONED"
    };

    private final boolean configured;
    private final IdentifierLength length;
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final Set<String> disabled = ConcurrentHashMap.newKeySet();
    /** What the schema listed when last read: what a refresh compares with. */
    private Set<String> lastRead = Set.of();

    /** @param configured the configuration's list, or null to read the tables from the backend */
    public BackendTables(Collection<String> configured) {
        this(configured, IdentifierLength.UNLIMITED);
    }

    /**
     * @param length how long the names the virtual database's backends keep may be: a name is known
     *     cut as they cut it, whichever spelling a statement or the configuration uses
     */
    public BackendTables(Collection<String> configured, IdentifierLength length) {
        this.configured = configured != null;
        this.length = length;
        if (configured != null) {
            configured.forEach(t -> held.add(normalize(t)));
        }
    }

    /** Whether the tables come from the configuration (then the backend's schema is never read). */
    public boolean isConfigured() {
        return configured;
    }

    /**
     * Replaces the tables by those of the connection's current schema (a configured list is kept).
     * Disabled tables stay disabled: only a restore brings their copies back.
     */
    public synchronized void readFrom(Connection c) throws SQLException {
        if (configured) {
            return;
        }
        Set<String> found = schemaTables(c);
        held.retainAll(found);
        held.addAll(found);
        lastRead = found;
    }

    /**
     * After a DDL that succeeded here: what appeared in the schema since it was last read is added (a SERIAL
     * column's sequence), what vanished from it is removed (the sequence a DROP TABLE took along). Names the schema
     * never listed (temporary tables) and tables other transactions create or drop, not yet committed, are left
     * to the changes the statements name.
     */
    public synchronized void refreshFrom(Connection c) throws SQLException {
        if (configured) {
            return;
        }
        Set<String> found = schemaTables(c);
        for (String gone : lastRead) {
            if (!found.contains(gone)) {
                held.remove(gone);
            }
        }
        for (String name : found) {
            if (!lastRead.contains(name)) {
                held.add(name);
            }
        }
        lastRead = found;
    }

    private Set<String> schemaTables(Connection c) throws SQLException {
        Set<String> found = new TreeSet<>();
        DatabaseMetaData md = c.getMetaData();
        try (ResultSet rs = md.getTables(c.getCatalog(), c.getSchema(), "%", TABLE_TYPES)) {
            while (rs.next()) {
                found.add(normalize(rs.getString("TABLE_NAME")));
            }
        }
        return found;
    }

    /** Holds the table and may serve it. */
    public boolean holds(String table) {
        String t = normalize(table);
        return held.contains(t) && !disabled.contains(t);
    }

    /** Has a copy of the table that was disabled after a write to it failed here. */
    public boolean isDisabled(String table) {
        return disabled.contains(normalize(table));
    }

    /** The DDL succeeded on this backend. */
    public void apply(SchemaChange change) {
        String name = normalize(change.name());
        switch (change.kind()) {
            case CREATE -> held.add(name);
            case DROP -> {
                held.remove(name);
                disabled.remove(name); // the stale copy is gone with it
            }
            case RENAME -> {
                if (held.remove(name)) {
                    held.add(normalize(change.newName()));
                }
                if (disabled.remove(name)) {
                    disabled.add(normalize(change.newName()));
                }
            }
        }
    }

    /**
     * Stops serving these tables here: their copies may differ from the other holders'. Returns those
     * that were served until now.
     */
    public List<String> disable(Collection<String> tables) {
        List<String> newly = new java.util.ArrayList<>();
        for (String t : new TreeSet<>(tables)) {
            String n = normalize(t);
            if (disabled.add(n)) {
                newly.add(n);
            }
        }
        return newly;
    }

    /** The backend's database was replaced by a dump: its copies are whatever the dump holds. */
    public void clearDisabled() {
        disabled.clear();
    }

    /** The tables held and served, in name order. */
    public SortedSet<String> served() {
        SortedSet<String> out = new TreeSet<>(held);
        out.removeAll(disabled);
        return out;
    }

    /** The disabled tables, in name order. */
    public SortedSet<String> disabled() {
        return new TreeSet<>(disabled);
    }

    private String normalize(String table) {
        return length.clip(table).toLowerCase(Locale.ROOT);
    }
}
