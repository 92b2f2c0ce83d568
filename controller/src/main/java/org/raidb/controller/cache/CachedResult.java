package org.raidb.controller.cache;

import java.util.List;
import org.raidb.driver.protocol.ColumnInfo;

/**
 * A read's rows held in memory, with the versions it was read at. Never changed once cached: each hit
 * serves the rows through a fresh row source.
 */
public final class CachedResult {
    private final List<ColumnInfo> columns;
    private final List<Object[]> rows;
    private final long bytes;
    private final ReadVersions versions;
    private final long relaxedNanos;

    CachedResult(ColumnInfo[] columns, List<Object[]> rows, long bytes, ReadVersions versions, long relaxedNanos) {
        this.columns = List.of(columns);
        this.rows = List.copyOf(rows);
        this.bytes = bytes;
        this.versions = versions;
        this.relaxedNanos = relaxedNanos;
    }

    /** How long after a write made it stale it may still be served: its text's rule, decided once when stored. */
    long relaxedNanos() {
        return relaxedNanos;
    }

    public ColumnInfo[] columns() {
        return columns.toArray(new ColumnInfo[0]);
    }

    public List<Object[]> rows() {
        return rows;
    }

    /** What the rows weigh, estimated. */
    long bytes() {
        return bytes;
    }

    ReadVersions versions() {
        return versions;
    }
}
