package org.raidb.recovery;

import java.time.Instant;
import java.util.Objects;

/**
 * A dump the controller made: restoring it and replaying the log from {@code checkpoint} rebuilds
 * a backend. {@code virtualDatabase} is the one it belongs to (the log keeps it in its vdb column).
 */
public record DumpRecord(
        String name,
        String backend,
        String checkpoint,
        String format,
        String path,
        Instant date,
        long sizeBytes,
        String virtualDatabase) {
    public DumpRecord {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(checkpoint, "checkpoint");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(virtualDatabase, "virtualDatabase");
    }
}
