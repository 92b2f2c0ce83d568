package org.raidb.controller.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.raidb.controller.analysis.StatementKind;
import org.raidb.controller.request.RequestListener;

/**
 * Times each request of one virtual database by kind and outcome ({@code raidb_requests_seconds}). Every timer
 * is made here, once: a request only picks one from an enum map and records into it, with no tag or string
 * built on its way.
 */
final class RequestMetrics implements RequestListener {
    static final String NAME = "raidb.requests";

    /** An EnumMap is an array indexed by the kind: no hashing on the way. */
    private final Map<StatementKind, Timer> answered = new EnumMap<>(StatementKind.class);

    private final Map<StatementKind, Timer> failed = new EnumMap<>(StatementKind.class);

    RequestMetrics(MeterRegistry registry, String virtualDatabase) {
        for (StatementKind kind : StatementKind.values()) {
            answered.put(kind, timer(registry, virtualDatabase, kind, "ok"));
            failed.put(kind, timer(registry, virtualDatabase, kind, "error"));
        }
    }

    private static Timer timer(MeterRegistry registry, String virtualDatabase, StatementKind kind, String outcome) {
        return Timer.builder(NAME)
                .description("Requests the request path answered, by kind and outcome, and how long they took")
                .tag("vdb", virtualDatabase)
                .tag("kind", label(kind))
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(60))
                .register(registry);
    }

    /** The kind as a dashboard names it. */
    static String label(StatementKind kind) {
        return switch (kind) {
            case TRANSACTION_CONTROL -> "transaction";
            case SESSION_SETTING -> "setting";
            default -> kind.name().toLowerCase(Locale.ROOT);
        };
    }

    @Override
    public void answered(StatementKind kind, long nanos, boolean error) {
        (error ? failed : answered).get(kind).record(nanos, TimeUnit.NANOSECONDS);
    }
}
