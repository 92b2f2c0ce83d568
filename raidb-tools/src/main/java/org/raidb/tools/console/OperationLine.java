package org.raidb.tools.console;

import com.fasterxml.jackson.databind.JsonNode;

/** One operation of {@code GET /api/operations} as one line: {@code #3 replay shop/pg2 1200 of 5000 entries (24%) ...}. */
final class OperationLine {
    private OperationLine() {}

    static String of(JsonNode op) {
        StringBuilder line = new StringBuilder();
        line.append('#')
                .append(op.path("id").asLong())
                .append(' ')
                .append(op.path("kind").asText())
                .append(' ')
                .append(op.path("virtualDatabase").asText());
        if (op.hasNonNull("target")) {
            line.append('/').append(op.get("target").asText());
        }
        line.append(' ').append(done(op));
        if (op.hasNonNull("ratePerSecond")) {
            line.append(", ")
                    .append(Math.round(op.get("ratePerSecond").asDouble()))
                    .append('/')
                    .append('s');
        }
        if (op.hasNonNull("secondsLeft")) {
            line.append(", ").append(duration(op.get("secondsLeft").asLong())).append(" left");
        }
        line.append(", ").append(op.path("state").asText());
        if (op.hasNonNull("message")) {
            line.append(": ").append(op.get("message").asText());
        }
        return line.toString();
    }

    /** "1200 of 5000 entries (24%)", or "1200 entries" while the total is unknown. */
    static String done(JsonNode op) {
        long done = op.path("done").asLong();
        String unit = op.path("unit").asText("");
        if (!op.hasNonNull("total")) {
            return done + " " + unit;
        }
        long total = op.get("total").asLong();
        long percent = total == 0 ? 100 : done * 100 / total;
        return done + " of " + total + " " + unit + " (" + percent + "%)";
    }

    /** "42 s", "3 min 05 s", "2 h 07 min": precise enough to plan a coffee. */
    static String duration(long seconds) {
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return String.format("%d min %02d s", seconds / 60, seconds % 60);
        }
        return String.format("%d h %02d min", seconds / 3600, seconds % 3600 / 60);
    }
}
