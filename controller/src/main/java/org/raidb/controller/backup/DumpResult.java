package org.raidb.controller.backup;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What a dump wrote, for the recovery log's dump registry and the admin API.
 *
 * @param format the name of the backuper that wrote the dump and can restore it ({@link
 *     Backuper#name()})
 * @param path the dump file
 * @param sizeBytes the dump file's size
 * @param tables tables dumped
 * @param rows rows dumped, all tables together
 * @param duration wall-clock time of the dump
 */
public record DumpResult(String format, Path path, long sizeBytes, int tables, long rows, Duration duration) {

    /** Rows per second over the whole dump, 0 for an instantaneous one. */
    public double rowsPerSecond() {
        double seconds = duration.toNanos() / 1e9;
        return seconds > 0 ? rows / seconds : 0;
    }
}
