package org.raidb.recovery;

import java.util.Objects;

/**
 * Why a backend left the array, kept with its state so that a restarted controller still knows
 * whether replaying the log can bring it back: a backend whose data diverged cannot be made
 * identical by replay, one that failed or that an administrator took out can.
 */
public record DisableCause(Kind kind, String reason) {
    public enum Kind {
        /** Its connection broke, it stopped answering, or it was unreachable. */
        FAILURE,
        /** It answered differently from the others: its data differs. */
        DIVERGENCE,
        /** An administrator (or an operation an administrator started) took it out. */
        ADMINISTRATOR
    }

    public DisableCause {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }

    public static DisableCause failure(String reason) {
        return new DisableCause(Kind.FAILURE, reason);
    }

    public static DisableCause divergence(String reason) {
        return new DisableCause(Kind.DIVERGENCE, reason);
    }

    public static DisableCause administrator(String reason) {
        return new DisableCause(Kind.ADMINISTRATOR, reason);
    }

    /** The same kind, told in other words (a backend being replayed into is still out for the same kind of reason). */
    public DisableCause because(String otherReason) {
        return new DisableCause(kind, otherReason);
    }

    public boolean diverged() {
        return kind == Kind.DIVERGENCE;
    }
}
