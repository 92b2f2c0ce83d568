package org.raidb.controller.auth;

import java.time.Duration;

/** A login attempt refused unchecked because too many attempts failed lately from its address or on its user. */
public final class LoginThrottledException extends Exception {
    private final Duration retryAfter;

    LoginThrottledException(String message, Duration retryAfter) {
        super(message);
        this.retryAfter = retryAfter;
    }

    /** When the next attempt from the same address on the same user will be checked. */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** Whole seconds to wait, rounded up and at least 1, as HTTP's Retry-After and people want them. */
    public long retryAfterSeconds() {
        return Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    }
}
