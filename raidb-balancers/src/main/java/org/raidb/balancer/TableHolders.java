package org.raidb.balancer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Which enabled backends hold which tables, and why none can serve a set of tables together. */
final class TableHolders {
    private TableHolders() {}

    static <B extends BackendView> List<B> enabled(List<B> backends) {
        List<B> out = new ArrayList<>(backends.size());
        for (B b : backends) {
            if (b.isEnabled()) {
                out.add(b);
            }
        }
        return out;
    }

    /** Enabled backends holding every one of the tables (every enabled backend for no table). */
    static <B extends BackendView> List<B> enabledHoldingAll(Collection<String> tables, List<B> backends) {
        List<B> out = new ArrayList<>(backends.size());
        for (B b : backends) {
            if (b.isEnabled() && b.holdsAll(tables)) {
                out.add(b);
            }
        }
        return out;
    }

    /** Enabled backends holding at least one of the tables. */
    static <B extends BackendView> List<B> enabledHoldingAny(Collection<String> tables, List<B> backends) {
        List<B> out = new ArrayList<>(backends.size());
        for (B b : backends) {
            if (b.isEnabled() && tables.stream().anyMatch(b::holdsTable)) {
                out.add(b);
            }
        }
        return out;
    }

    /** Each table, in name order so that messages are stable, with the names of its enabled holders. */
    static Map<String, List<String>> enabledHolders(Collection<String> tables, List<? extends BackendView> backends) {
        Map<String, List<String>> holders = new LinkedHashMap<>();
        for (String t : new TreeSet<>(tables)) {
            List<String> names = new ArrayList<>();
            for (BackendView b : backends) {
                if (b.isEnabled() && b.holdsTable(t)) {
                    names.add(b.name());
                }
            }
            holders.put(t, List.copyOf(names));
        }
        return holders;
    }

    /**
     * Why no enabled backend holds all of {@code tables}: none is enabled, one of the tables is held by
     * no enabled backend (checked first: it is the simpler fix), or the tables are split between
     * backends.
     */
    static NoBackendAvailableException whyNoneHoldsAll(
            Collection<String> tables, List<? extends BackendView> backends) {
        if (backends.stream().noneMatch(BackendView::isEnabled)) {
            return NoBackendAvailableException.noBackendEnabled();
        }
        Map<String, List<String>> holders = enabledHolders(tables, backends);
        for (Map.Entry<String, List<String>> e : holders.entrySet()) {
            if (e.getValue().isEmpty()) {
                return notHeld(e.getKey(), backends);
            }
        }
        return TablesNotColocatedException.noCommonBackend(holders);
    }

    private static TableNotHeldException notHeld(String table, List<? extends BackendView> backends) {
        List<String> disabledHolders = new ArrayList<>();
        List<String> disabledCopies = new ArrayList<>();
        for (BackendView b : backends) {
            if (!b.isEnabled() && (b.holdsTable(table) || b.isTableDisabled(table))) {
                disabledHolders.add(b.name());
            } else if (b.isEnabled() && b.isTableDisabled(table)) {
                disabledCopies.add(b.name());
            }
        }
        return new TableNotHeldException(table, disabledHolders, disabledCopies);
    }
}
