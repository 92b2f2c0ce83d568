package org.raidb.recovery;

import java.time.Instant;
import java.util.Objects;

/**
 * A backend's recorded state. {@code lastCheckpoint} is where a disabled backend stopped: replay
 * starts there. It may be null for an enabled backend.
 */
public record BackendStateRecord(BackendState state, String lastCheckpoint, Instant updatedAt) {
  public BackendStateRecord {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  public static BackendStateRecord now(BackendState state, String lastCheckpoint) {
    return new BackendStateRecord(state, lastCheckpoint, Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
  }
}
