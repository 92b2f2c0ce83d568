package org.raidb.controller.determinism;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.SplittableRandom;

/** Statement clocks whose every value is known, so tests can spell out the expected literals. */
final class FixedStatementClock {
    static final Instant TRANSACTION_START = Instant.parse("2026-11-22T03:40:00.123456789Z");
    static final Instant STATEMENT_TIME = Instant.parse("2026-11-22T03:41:30.987654Z");
    static final Instant CLOCK_NOW = Instant.parse("2026-11-22T03:42:00.5Z");
    static final long SEED = 42;

    private FixedStatementClock() {}

    static StatementClock utc() {
        return in(ZoneOffset.UTC);
    }

    static StatementClock in(ZoneId zone) {
        return at(TRANSACTION_START, STATEMENT_TIME, zone);
    }

    static StatementClock at(Instant transactionStart, Instant statementTime, ZoneId zone) {
        return new StatementClock(
                statementTime,
                transactionStart,
                Clock.fixed(CLOCK_NOW, ZoneOffset.UTC),
                new SplittableRandom(SEED),
                zone);
    }

    /** The n-th (0-based) double the clocks above draw. */
    static double nthRandom(int n) {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < n; i++) {
            random.nextDouble();
        }
        return random.nextDouble();
    }
}
