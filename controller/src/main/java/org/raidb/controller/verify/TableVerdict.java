package org.raidb.controller.verify;

import java.util.List;
import java.util.Map;

/**
 * What a verify found for one table; the JSON field names of the admin API are these component names.
 *
 * @param state {@code identical}, {@code differing}, or {@code skipped} (dropped during the verify, or a holder
 *     could not be read: {@code note} says which)
 * @param method how the checksums were computed: {@code postgresSql} when every holder is PostgreSQL, else
 *     {@code portable}
 * @param checksums each holder's {@code ROWS:CHECKSUM}, or {@code missing} where the table is not there
 * @param differing the holders outside the majority; every holder when there is none
 * @param reference a holder of the majority's copy, from which {@code --repair} copies; null without a majority
 * @param repaired the holders {@code --repair} made identical to {@code reference}
 */
public record TableVerdict(
        String table,
        String state,
        String method,
        List<String> holders,
        Map<String, String> checksums,
        List<String> differing,
        String reference,
        List<String> repaired,
        String note) {

    public static final String IDENTICAL = "identical";
    public static final String DIFFERING = "differing";
    public static final String SKIPPED = "skipped";
    /** The methods: computed by PostgreSQL itself, or through the generic path that agrees across products. */
    public static final String POSTGRES_SQL = "postgresSql";

    public static final String PORTABLE = "portable";
    /** What {@code checksums} shows for a holder that has no such table. */
    public static final String MISSING = "missing";

    public TableVerdict {
        holders = List.copyOf(holders);
        checksums = Map.copyOf(checksums);
        differing = List.copyOf(differing);
        repaired = List.copyOf(repaired);
    }

    public boolean differs() {
        return DIFFERING.equals(state);
    }

    TableVerdict withRepaired(List<String> backends, String why) {
        return new TableVerdict(table, state, method, holders, checksums, differing, reference, backends, why);
    }
}
