package org.raidb.tools.demo;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.raidb.controller.verification.TableChecksum;

/**
 * Compares the backends of a virtual database table by table, connecting to each real database
 * directly (not through the controller), and prints a backend × table grid of row counts and
 * shortened checksums, then whether all replicas are identical.
 *
 * <pre>
 * table       pg1                     pg2
 * customers   982 3f2a9c01b7de        982 3f2a9c01b7de
 * orders      3,211 8c1d0e5a7f42      3,211 8c1d0e5a7f42
 * all 2 replicas identical
 * </pre>
 *
 * When the replicas are not all PostgreSQL, every one is checksummed through the generic JDBC
 * path, so that the checksums are comparable across products.
 */
public final class ReplicaReport {

    /** One backend to compare: a name for the report and a direct connection to its database. */
    public record Replica(String name, Connection connection) {}

    private static final int SHORT_CHECKSUM = 12;
    private static final String MISSING = "-";

    private ReplicaReport() {}

    /** Prints the report; returns true when every replica holds the same tables with the same contents. */
    public static boolean print(List<Replica> replicas, PrintStream out) throws SQLException {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("no replica to compare");
        }
        boolean allPostgres = true;
        for (Replica r : replicas) {
            allPostgres &= TableChecksum.isPostgreSql(r.connection());
        }
        Map<String, Map<String, String>> checksumsByReplica = new LinkedHashMap<>();
        for (Replica r : replicas) {
            checksumsByReplica.put(
                    r.name(),
                    allPostgres
                            ? TableChecksum.postgresChecksums(r.connection())
                            : TableChecksum.genericChecksums(r.connection()));
        }
        TreeSet<String> tables = new TreeSet<>();
        checksumsByReplica.values().forEach(m -> tables.addAll(m.keySet()));

        List<List<String>> grid = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("table"));
        replicas.forEach(r -> header.add(r.name()));
        grid.add(header);
        List<String> differing = new ArrayList<>();
        for (String table : tables) {
            List<String> row = new ArrayList<>(List.of(table));
            Map<String, List<String>> replicasByChecksum = new LinkedHashMap<>();
            for (Replica r : replicas) {
                String checksum = checksumsByReplica.get(r.name()).get(table);
                row.add(checksum == null ? MISSING : display(checksum));
                replicasByChecksum
                        .computeIfAbsent(checksum == null ? MISSING : checksum, k -> new ArrayList<>())
                        .add(r.name());
            }
            grid.add(row);
            if (replicasByChecksum.size() > 1) {
                differing.add(table + " " + describeGroups(replicasByChecksum));
            }
        }
        printGrid(grid, out);
        if (differing.isEmpty()) {
            out.println("all " + replicas.size() + " replicas identical" + (tables.isEmpty() ? " (no tables)" : ""));
            return true;
        }
        out.println("replicas differ: " + String.join("; ", differing));
        return false;
    }

    /** "3,211 8c1d0e5a7f42" from "3211:8c1d0e5a7f42...". */
    private static String display(String checksum) {
        int colon = checksum.indexOf(':');
        long count = Long.parseLong(checksum.substring(0, colon));
        String hex = checksum.substring(colon + 1);
        return String.format(Locale.US, "%,d %s", count, hex.substring(0, Math.min(SHORT_CHECKSUM, hex.length())));
    }

    /** "(pg1, pg3 | pg2)": which replicas agree with which. */
    private static String describeGroups(Map<String, List<String>> replicasByChecksum) {
        List<String> groups = new ArrayList<>();
        replicasByChecksum.forEach((checksum, names) ->
                groups.add(String.join(", ", names) + (checksum.equals(MISSING) ? " missing" : "")));
        return "(" + String.join(" | ", groups) + ")";
    }

    private static void printGrid(List<List<String>> grid, PrintStream out) {
        int columns = grid.get(0).size();
        int[] widths = new int[columns];
        for (List<String> row : grid) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        for (List<String> row : grid) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(
                        i == 0
                                ? String.format("%-" + widths[i] + "s", row.get(i))
                                : "  " + String.format("%-" + widths[i] + "s", row.get(i)));
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
