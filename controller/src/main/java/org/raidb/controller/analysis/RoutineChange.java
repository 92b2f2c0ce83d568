package org.raidb.controller.analysis;

import java.util.HashSet;
import java.util.Set;

/**
 * The functions (procedures, aggregates) a DDL statement creates, replaces, alters or drops, whose
 * volatility the controller must learn again once the statement has run; {@code everything} when
 * the statement may change any of them ({@code CREATE EXTENSION}, {@code DO}) or their names could
 * not be read.
 *
 * @param names lower-case, unqualified
 */
public record RoutineChange(Set<String> names, boolean everything) {
    public static final RoutineChange EVERYTHING = new RoutineChange(Set.of(), true);

    public RoutineChange {
        names = Set.copyOf(names);
    }

    static RoutineChange of(Set<String> names) {
        return names.isEmpty() ? EVERYTHING : new RoutineChange(names, false);
    }

    /** Both changes: a text of several statements, or a transaction's DDL so far. */
    public RoutineChange plus(RoutineChange other) {
        if (other == null) {
            return this;
        }
        if (everything || other.everything) {
            return EVERYTHING;
        }
        Set<String> all = new HashSet<>(names);
        all.addAll(other.names);
        return new RoutineChange(all, false);
    }

    /** Whether a call of {@code name} may reach a function this change is about. */
    public boolean covers(String name) {
        return everything || names.contains(name);
    }
}
