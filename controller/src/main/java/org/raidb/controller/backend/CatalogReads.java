package org.raidb.controller.backend;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When a catalogue the controller keeps of the backends' own (volatile defaults, keys) reads them:
 * each backend once after it was enabled, since its schema may have moved on while it was out, and
 * one backend that can answer when DDL must be read again. The reading itself is the caller's.
 *
 * <p>A backend that is another controller is never read: its system catalogue is whichever leaf answers
 * (one partition of a RAIDb-0 child), and a child runs catalogue queries calling functions it does not
 * know on every leaf, comparing answers that differ by design. Where every backend is a controller, the
 * catalogues stay empty: conflict classes are whole tables, and volatile column defaults are the
 * children's to fill (docs/admin.md, "Trees of controllers").
 */
public final class CatalogReads {
    /** Reads what the caller keeps from one backend, on a direct connection. */
    @FunctionalInterface
    public interface Read {
        void from(Connection c) throws SQLException;
    }

    /** What to say about a backend whose catalogue could not be read. */
    @FunctionalInterface
    public interface Failed {
        void on(DatabaseBackend backend, SQLException e);
    }

    /** Backends read since they were last enabled. */
    private final Set<String> read = ConcurrentHashMap.newKeySet();

    /** Reads each enabled backend not read since it was last enabled (cheap when there is none: every write asks). */
    public void newlyEnabled(List<DatabaseBackend> backends, Read reader, Failed failed) {
        for (DatabaseBackend b : backends) {
            if (b.isController()) {
                continue; // its catalogue is one leaf's, and its answer to catalogue queries is not a database's
            }
            if (!b.isEnabled()) {
                read.remove(b.name());
            } else if (read.add(b.name())) {
                try (Connection c = b.directConnection(null)) {
                    reader.from(c);
                } catch (SQLException e) {
                    failed.on(b, e);
                }
            }
        }
    }

    /**
     * Reads the first enabled backend holding every one of {@code tables} (any, when null) that answers.
     *
     * @return whether one did
     */
    public static boolean fromOneHolding(
            List<DatabaseBackend> backends, Collection<String> tables, Read reader, Failed failed) {
        for (DatabaseBackend b : backends) {
            if (b.isEnabled()
                    && !b.isController()
                    && (tables == null || tables.stream().allMatch(b::holdsTable))) {
                try (Connection c = b.directConnection(null)) {
                    reader.from(c);
                    return true;
                } catch (SQLException e) {
                    failed.on(b, e);
                }
            }
        }
        return false;
    }
}
