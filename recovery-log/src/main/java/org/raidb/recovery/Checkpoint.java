package org.raidb.recovery;

import java.time.Instant;

/** A named position in the log: everything up to and including {@code position} happened before it. */
public record Checkpoint(String name, long position, Instant createdAt) {}
