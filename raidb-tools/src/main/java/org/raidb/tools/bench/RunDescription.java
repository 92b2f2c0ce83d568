package org.raidb.tools.bench;

import java.time.Instant;

/** How a benchmark run was made: recorded with its figures so that they can be compared later. */
record RunDescription(Instant start, Machine machine, String label, int durationSeconds, int warmupSeconds, int rounds,
    int rows, String postgresVersion, boolean profiled) {}
