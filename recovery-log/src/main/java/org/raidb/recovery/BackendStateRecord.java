package org.raidb.recovery;

import java.time.Instant;
import java.util.Objects;

/**
 * A backend's recorded state. {@code lastCheckpoint} is where a disabled backend stopped: replay
 * starts there. It may be null for an enabled backend. {@code cause} says why a backend is out
 * (null while it is enabled, or when a store written before causes were kept does not know).
 */
public record BackendStateRecord(
        RecordedBackendState state, String lastCheckpoint, Instant updatedAt, DisableCause cause) {
    public BackendStateRecord {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    public BackendStateRecord(RecordedBackendState state, String lastCheckpoint, Instant updatedAt) {
        this(state, lastCheckpoint, updatedAt, null);
    }

    public static BackendStateRecord now(RecordedBackendState state, String lastCheckpoint) {
        return now(state, lastCheckpoint, null);
    }

    public static BackendStateRecord now(RecordedBackendState state, String lastCheckpoint, DisableCause cause) {
        return new BackendStateRecord(
                state, lastCheckpoint, Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS), cause);
    }
}
