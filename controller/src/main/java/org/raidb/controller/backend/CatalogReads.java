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
 * <p>A backend that is another controller is read through it only where the caller says so. Volatile
 * defaults and triggers are ({@code defaults.ChildCatalogReader}): left to the children, each child would
 * draw its own now() for its own leaves. Keys are not: writes of a table whose keys are not known
 * conflict with the whole table, which is correct; a child cannot parse the key queries and runs them as
 * writes on every one of its backends, comparing answers that differ under RAIDb-0; and row-level
 * classes would let more writes be in flight on a child when it dies, each in doubt at its replay
 * (ControllerTreeIT's killed child then failed its in-doubt check). See docs/determinism.md, "Through a
 * child controller".
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

    private final boolean throughChildControllers;

    /** @param throughChildControllers whether a backend that is another controller is read too */
    public CatalogReads(boolean throughChildControllers) {
        this.throughChildControllers = throughChildControllers;
    }

    /** Reads each enabled backend not read since it was last enabled (cheap when there is none: every write asks). */
    public void newlyEnabled(List<DatabaseBackend> backends, Read reader, Failed failed) {
        for (DatabaseBackend b : backends) {
            if (b.isController() && !throughChildControllers) {
                continue;
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
    public boolean fromOneHolding(
            List<DatabaseBackend> backends, Collection<String> tables, Read reader, Failed failed) {
        for (DatabaseBackend b : backends) {
            if (b.isEnabled()
                    && (throughChildControllers || !b.isController())
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
