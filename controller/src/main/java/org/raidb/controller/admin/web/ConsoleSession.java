package org.raidb.controller.admin.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;

/**
 * One logged-in browser: who it is, the token its state-changing requests must echo, and when it was last used
 * (sessions end after {@link ConsoleSessions#IDLE_TIMEOUT} without a request).
 */
final class ConsoleSession<P> {
    private final String id;
    private final String user;
    private final P admin;
    private final String csrfToken;
    private volatile Instant lastUsed;

    ConsoleSession(String id, String user, P admin, String csrfToken, Instant now) {
        this.id = id;
        this.user = user;
        this.admin = admin;
        this.csrfToken = csrfToken;
        this.lastUsed = now;
    }

    String id() {
        return id;
    }

    String user() {
        return user;
    }

    P admin() {
        return admin;
    }

    String csrfToken() {
        return csrfToken;
    }

    Instant lastUsed() {
        return lastUsed;
    }

    void used(Instant now) {
        lastUsed = now;
    }

    /** Compared in constant time: how long a wrong guess took must not say how much of it was right. */
    boolean acceptsCsrfToken(String presented) {
        return presented != null
                && MessageDigest.isEqual(
                        presented.getBytes(StandardCharsets.UTF_8), csrfToken.getBytes(StandardCharsets.UTF_8));
    }
}
