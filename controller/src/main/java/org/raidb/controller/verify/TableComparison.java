package org.raidb.controller.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One table's checksums on its holders, made a {@link TableVerdict}: the copy that more than half of the holders
 * share is the reference, the others differ. Without such a majority (two holders that disagree, a three-way split)
 * every holder is listed, and no copy is taken as right.
 */
final class TableComparison {
    private final String table;
    private final String method;
    /** Holder name to its checksum, {@link TableVerdict#MISSING}, or null when it could not be read. */
    // By backend name: a report lists holders in one order whichever backend finished first.
    private final Map<String, String> checksums = new java.util.TreeMap<>();

    private final List<String> unreadable = new ArrayList<>();
    private boolean dropped;

    TableComparison(String table, String method) {
        this.table = table;
        this.method = method;
    }

    String method() {
        return method;
    }

    void checksum(String backend, String checksum) {
        checksums.put(backend, checksum);
    }

    /** The table was listed in the backend's snapshot but was gone when its rows were read. */
    void dropped(String backend) {
        checksums.put(backend, TableVerdict.MISSING);
        dropped = true;
    }

    void unreadable(String backend, String why) {
        checksums.put(backend, null);
        unreadable.add(backend + " (" + why + ")");
    }

    /** Leaves out a backend that was disabled during the verify. */
    void forget(String backend) {
        checksums.remove(backend);
        unreadable.removeIf(u -> u.startsWith(backend + " ("));
    }

    TableVerdict verdict() {
        List<String> holders = new ArrayList<>(checksums.keySet());
        if (dropped) {
            return skipped(holders, "dropped during the verify");
        }
        if (!unreadable.isEmpty()) {
            return skipped(holders, "could not be read on " + String.join(", ", unreadable));
        }
        Map<String, List<String>> byChecksum = new TreeMap<>();
        checksums.forEach((backend, sum) ->
                byChecksum.computeIfAbsent(sum, k -> new ArrayList<>()).add(backend));
        if (byChecksum.size() <= 1) {
            return new TableVerdict(
                    table,
                    TableVerdict.IDENTICAL,
                    method,
                    holders,
                    checksums,
                    List.of(),
                    holders.isEmpty() ? null : holders.get(0),
                    List.of(),
                    holders.size() == 1 ? "one holder: nothing to compare it with" : null);
        }
        List<String> majority = byChecksum.values().stream()
                .filter(group -> group.size() * 2 > holders.size())
                .findFirst()
                .orElse(null);
        // A majority's copy of a table that is missing there is no copy to repair from.
        if (majority != null && TableVerdict.MISSING.equals(checksums.get(majority.get(0)))) {
            majority = null;
        }
        List<String> differing = new ArrayList<>(holders);
        if (majority != null) {
            differing.removeAll(majority);
        }
        return new TableVerdict(
                table,
                TableVerdict.DIFFERING,
                method,
                holders,
                checksums,
                differing,
                majority == null ? null : majority.get(0),
                List.of(),
                majority == null
                        ? "no copy is held by more than half of its " + holders.size()
                                + " holders: repair it by hand (restore the wrong backend from a dump)"
                        : null);
    }

    private TableVerdict skipped(List<String> holders, String why) {
        Map<String, String> known = new LinkedHashMap<>(checksums);
        known.values().removeIf(java.util.Objects::isNull);
        return new TableVerdict(table, TableVerdict.SKIPPED, method, holders, known, List.of(), null, List.of(), why);
    }
}
