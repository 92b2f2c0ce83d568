package org.raidb.controller.cache;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The version counters of one table: {@link #anyWrite} moves with every write to it, {@link #rows}
 * with writes that may add or remove rows or change the table itself (INSERT, DELETE, TRUNCATE, DDL,
 * writes of unknown shape), and one counter per column with the UPDATEs that set it.
 */
final class TableVersions {
    final VersionCounter anyWrite = new VersionCounter();
    final VersionCounter rows = new VersionCounter();
    private final ConcurrentHashMap<String, VersionCounter> columns = new ConcurrentHashMap<>();

    VersionCounter column(String name) {
        return columns.computeIfAbsent(name, n -> new VersionCounter());
    }
}
