package org.raidb.tpcw.verify;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.raidb.tpcw.schema.TpcwSchema;

/**
 * Per-table checksums of the ten TPC-W tables, to tell whether databases (the backends of a RAIDb
 * virtual database after a replay, or two replays) hold the same data. Each reads {@code
 * ROWCOUNT:MD5}, the md5 of the sorted md5s of each row's text form, computed by PostgreSQL
 * itself (no rows travel); the same form as the controller's checksums of its backends.
 */
public final class TableChecksums {

    private TableChecksums() {}

    /** Checksums of the TPC-W tables, in schema order, straight from this connection's database. */
    public static Map<String, String> of(Connection c) throws SQLException {
        return of(c, TpcwSchema.TABLES);
    }

    /** Checksums of {@code tables} only (a RAIDb-0/2 backend holds some of them), in the given order. */
    public static Map<String, String> of(Connection c, Collection<String> tables) throws SQLException {
        Map<String, String> sums = new LinkedHashMap<>();
        try (Statement s = c.createStatement()) {
            for (String table : tables) {
                // coalesce: string_agg of no rows is NULL. The alias is unusual so that no column shadows it.
                try (ResultSet rs =
                        s.executeQuery("SELECT count(*), coalesce(md5(string_agg(md5(tpcw_row::text), '' ORDER BY "
                                + "md5(tpcw_row::text))), md5('')) FROM " + table + " tpcw_row")) {
                    rs.next();
                    sums.put(table, rs.getLong(1) + ":" + rs.getString(2));
                }
            }
        }
        return sums;
    }

    /** The tables whose checksum is not the same in every one of {@code databases}; empty when identical. */
    public static List<String> differing(List<Map<String, String>> databases) {
        List<String> differ = new ArrayList<>();
        if (databases.isEmpty()) {
            return differ;
        }
        for (String table : databases.get(0).keySet()) {
            String first = databases.get(0).get(table);
            if (databases.stream().anyMatch(d -> !first.equals(d.get(table)))) {
                differ.add(table);
            }
        }
        return differ;
    }
}
