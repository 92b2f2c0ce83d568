package org.raidb.controller.group;

import java.util.List;
import java.util.TreeSet;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.VirtualDatabaseConfig;

/**
 * What must be the same on every member of a group for them to apply the same writes alike: the
 * virtual database's name, its RAIDb level and where its tables are placed (the tables its backends
 * are configured to hold; "all" where a backend holds what its schema has). Each member has its own
 * backends, so their names and URLs may differ.
 */
final class Fingerprint {
    private Fingerprint() {}

    static String of(VirtualDatabaseConfig vdb) {
        TreeSet<String> tables = new TreeSet<>();
        boolean all = false;
        for (BackendConfig b : vdb.backends()) {
            if (b.tables() == null || b.tables().isEmpty()) {
                all = true;
            } else {
                tables.addAll(b.tables());
            }
        }
        return "virtual database=" + vdb.name() + "; level=" + vdb.replication().level() + "; tables="
                + (all ? "all" : String.join(",", tables));
    }

    /** The parts where two fingerprints differ, "mine: X, theirs: Y" each; null when they are equal. */
    static String difference(String mine, String theirs) {
        if (mine.equals(theirs)) {
            return null;
        }
        List<String> a = List.of(mine.split("; "));
        List<String> b = List.of(theirs.split("; "));
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? a.get(i) : "";
            String y = i < b.size() ? b.get(i) : "";
            if (!x.equals(y)) {
                if (out.length() > 0) {
                    out.append("; ");
                }
                out.append("this controller's ").append(x).append(", theirs ").append(y);
            }
        }
        return out.toString();
    }
}
