package org.raidb.balancer;

import java.util.HashSet;
import java.util.Set;

/** A backend as routing sees it, with every property settable by the test. */
final class FakeBackend implements BackendView {
    private final String name;
    boolean enabled = true;
    Set<String> tables; // null: holds everything
    int pending;
    int weight = 1;
    final Set<String> disabledTables = new HashSet<>();

    FakeBackend(String name) {
        this.name = name;
    }

    FakeBackend holding(String... t) {
        tables = Set.of(t);
        return this;
    }

    /** As the controller does after a write to the table failed here: the copy stays, unused. */
    FakeBackend disableTable(String table) {
        disabledTables.add(table);
        return this;
    }

    FakeBackend weight(int w) {
        weight = w;
        return this;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean isEnabled() {
        return enabled;
    }

    @Override
    public boolean holdsTable(String table) {
        return (tables == null || tables.contains(table)) && !disabledTables.contains(table);
    }

    @Override
    public boolean isTableDisabled(String table) {
        return disabledTables.contains(table);
    }

    @Override
    public int pendingRequests() {
        return pending;
    }

    @Override
    public int weight() {
        return weight;
    }

    @Override
    public String toString() {
        return name;
    }
}
