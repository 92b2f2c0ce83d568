package org.raidb.recovery;

import java.util.Objects;

/**
 * What became of a logged statement. {@link Status#PENDING} means "logged before execution, result
 * not recorded yet": replay treats it as having succeeded (see {@code docs/recovery-log.md}).
 */
public record Outcome(Status status, String sqlState) {

    /** Stored as its {@link #code()}, a small number that never changes. */
    public enum Status {
        PENDING(0),
        SUCCESS(1),
        FAILED(2),
        /**
         * Left pending by a controller that died while backends ran it: whether each backend applied it
         * is unknown, so no replay may cross it (see docs/recovery-log.md).
         */
        IN_DOUBT(3);

        private final int code;

        Status(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }

        static Status ofCode(int code) {
            for (Status s : values()) {
                if (s.code == code) {
                    return s;
                }
            }
            throw new IllegalArgumentException("no outcome has code " + code + " (a log written by a newer RAIDb?)");
        }
    }

    public static final Outcome PENDING = new Outcome(Status.PENDING, null);
    public static final Outcome SUCCESS = new Outcome(Status.SUCCESS, null);
    public static final Outcome IN_DOUBT = new Outcome(Status.IN_DOUBT, null);

    public Outcome {
        Objects.requireNonNull(status, "status");
        if (status != Status.FAILED && sqlState != null) {
            throw new IllegalArgumentException("only a FAILED outcome carries a SQLState");
        }
    }

    public static Outcome failed(String sqlState) {
        return new Outcome(Status.FAILED, sqlState);
    }

    public boolean failed() {
        return status == Status.FAILED;
    }
}
