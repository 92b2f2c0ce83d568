package org.raidb.controller.admin.web;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's sessions, in memory: a controller restart logs every browser out. Session ids and CSRF tokens are
 * 256 random bits each, so that neither can be guessed.
 */
final class ConsoleSessions<P> {
    /** A console left open but unused this long must log in again. */
    static final Duration IDLE_TIMEOUT = Duration.ofMinutes(30);

    private final SecureRandom random = new SecureRandom();
    private final Map<String, ConsoleSession<P>> byId = new ConcurrentHashMap<>();
    private final Clock clock;

    ConsoleSessions(Clock clock) {
        this.clock = clock;
    }

    ConsoleSession<P> open(String user, P admin) {
        Instant now = clock.instant();
        forgetIdle(now);
        ConsoleSession<P> session = new ConsoleSession<>(randomToken(), user, admin, randomToken(), now);
        byId.put(session.id(), session);
        return session;
    }

    /** The session of that id if it is still open; using it keeps it open. */
    Optional<ConsoleSession<P>> find(String id) {
        ConsoleSession<P> session = id == null ? null : byId.get(id);
        Instant now = clock.instant();
        if (session == null || isIdle(session, now)) {
            if (session != null) {
                byId.remove(session.id());
            }
            return Optional.empty();
        }
        session.used(now);
        return Optional.of(session);
    }

    void close(ConsoleSession<P> session) {
        byId.remove(session.id());
    }

    private void forgetIdle(Instant now) {
        byId.values().removeIf(s -> isIdle(s, now));
    }

    private static boolean isIdle(ConsoleSession<?> session, Instant now) {
        return session.lastUsed().plus(IDLE_TIMEOUT).isBefore(now);
    }

    private String randomToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
