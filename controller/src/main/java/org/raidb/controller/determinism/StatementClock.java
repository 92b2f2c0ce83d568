package org.raidb.controller.determinism;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The values one statement's non-deterministic calls take, decided once by the controller.
 *
 * <p>Values drawn for the n-th random(), uuid or clock read of the statement are kept: rewriting
 * the same statement for two dialects (a heterogeneous cluster) with the same clock gives every
 * backend the same values. One instance per statement; safe to share between the threads that
 * rewrite it for different backends.
 */
public final class StatementClock {
    /** gen_random_uuid() is cryptographically random in PostgreSQL; the replacement should be too. */
    private static final RandomGenerator STRONG_RANDOM = new SecureRandom();

    private final Instant statementTime;
    private final Instant transactionStart;
    private final Clock clock;
    private final RandomGenerator random;
    private final ZoneId zone;

    private final List<Instant> clockReads = new ArrayList<>(1);
    private final List<Double> randoms = new ArrayList<>(1);
    private final List<UUID> uuids = new ArrayList<>(1);

    /**
     * @param statementTime MariaDB's NOW(), PostgreSQL's statement_timestamp()
     * @param transactionStart PostgreSQL's now(): the statement time of the transaction's first
     *     statement, the same for all its statements
     * @param clock read afresh for clock_timestamp(), timeofday() and SYSDATE()
     * @param random draws random() and UUIDs
     * @param zone the session's time zone: what current_date, localtimestamp and MariaDB's NOW() are
     *     local to
     */
    public StatementClock(
            Instant statementTime, Instant transactionStart, Clock clock, RandomGenerator random, ZoneId zone) {
        this.statementTime = Objects.requireNonNull(statementTime, "statementTime");
        this.transactionStart = Objects.requireNonNull(transactionStart, "transactionStart");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    /**
     * The clock for a statement starting now, in UTC.
     *
     * @param transactionStart when the enclosing transaction began, or null in autocommit, where the
     *     statement is its own transaction
     */
    public static StatementClock now(Instant transactionStart) {
        return now(transactionStart, ZoneOffset.UTC);
    }

    /** As {@link #now(Instant)}, for a session whose TimeZone (time_zone) is {@code zone}. */
    public static StatementClock now(Instant transactionStart, ZoneId zone) {
        Clock clock = Clock.systemUTC();
        Instant statementTime = clock.instant();
        return new StatementClock(
                statementTime, transactionStart != null ? transactionStart : statementTime, clock, STRONG_RANDOM, zone);
    }

    public Instant statementTime() {
        return statementTime;
    }

    public Instant transactionStart() {
        return transactionStart;
    }

    public ZoneId zone() {
        return zone;
    }

    /** The clock as the {@code occurrence}-th (0-based) clock_timestamp()-like call of the statement reads it. */
    public synchronized Instant clockRead(int occurrence) {
        return nth(clockReads, occurrence, clock::instant);
    }

    /** The value of the statement's {@code occurrence}-th random(), in [0, 1). */
    public synchronized double random(int occurrence) {
        return nth(randoms, occurrence, random::nextDouble);
    }

    /** The statement's {@code occurrence}-th generated UUID: version 4, random. */
    public synchronized UUID uuid(int occurrence) {
        return nth(uuids, occurrence, this::randomUuid);
    }

    private UUID randomUuid() {
        long high = random.nextLong();
        long low = random.nextLong();
        high = (high & ~0xF000L) | 0x4000L; // version 4
        low = (low & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
        return new UUID(high, low);
    }

    private static <T> T nth(List<T> drawn, int occurrence, Supplier<T> draw) {
        while (drawn.size() <= occurrence) {
            drawn.add(draw.get());
        }
        return drawn.get(occurrence);
    }
}
