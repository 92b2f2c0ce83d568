package org.raidb.tpcw.trace;

import java.util.Arrays;

/**
 * One line of a trace: at {@code offsetMicros} after the recording started, session {@code
 * session} (1-based) did {@code kind}; {@code text} is the SQL of a statement or the name of an
 * interaction, empty otherwise.
 */
public record TraceEvent(long offsetMicros, int session, Kind kind, String text) {

    public enum Kind {
        /** An interaction starts; text is its name (e.g. BestSellers). */
        INTERACTION('I'),
        /** Auto-commit off: a transaction starts. */
        BEGIN('B'),
        /** One SQL statement with its literal values. */
        STATEMENT('S'),
        COMMIT('C'),
        ROLLBACK('R');

        private final char code;

        Kind(char code) {
            this.code = code;
        }

        public char code() {
            return code;
        }

        static Kind of(char code) {
            return Arrays.stream(values())
                    .filter(k -> k.code == code)
                    .findFirst()
                    .orElse(null);
        }
    }

    public static TraceEvent statement(long offsetMicros, int session, String sql) {
        return new TraceEvent(offsetMicros, session, Kind.STATEMENT, sql);
    }

    public static TraceEvent of(long offsetMicros, int session, Kind kind) {
        return new TraceEvent(offsetMicros, session, kind, "");
    }
}
