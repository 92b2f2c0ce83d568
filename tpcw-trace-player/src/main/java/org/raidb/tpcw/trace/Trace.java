package org.raidb.tpcw.trace;

import java.util.List;
import java.util.Map;

/**
 * A trace read into memory: its metadata and each session's events in recorded order, sessions in
 * ascending number.
 */
public record Trace(
        Map<String, String> metadata, Map<Integer, List<TraceEvent>> sessions, long statements, long events) {

    /** The offset of the last event: how long the recording lasted. */
    public long durationMicros() {
        return sessions.values().stream()
                .filter(l -> !l.isEmpty())
                .mapToLong(l -> l.get(l.size() - 1).offsetMicros())
                .max()
                .orElse(0);
    }
}
