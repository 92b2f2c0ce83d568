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

    CachedResult(ColumnInfo[] columns, List<Object[]> rows, long bytes, ReadVersions versions) {
        this.columns = List.of(columns);
        this.rows = List.copyOf(rows);
        this.bytes = bytes;
        this.versions = versions;
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
