package org.raidb.controller.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.raidb.controller.scheduler.WriteScheduler;

/**
 * The write scheduler of one virtual database: waits for conflict classes and what they cost, deadlocks,
 * lock timeouts, and the writes waiting now. Read from the scheduler's own counts at scrape time.
 */
final class SchedulerMetrics {
    private SchedulerMetrics() {}

    static void bind(MeterRegistry registry, String vdb, WriteScheduler scheduler) {
        Tags tags = Tags.of("vdb", vdb);
        FunctionCounter.builder(
                        "raidb.scheduler.lock.waits",
                        scheduler,
                        s -> s.waitCounts().waits())
                .description("Writes that waited for a conflict class another transaction held")
                .tags(tags)
                .register(registry);
        FunctionCounter.builder(
                        "raidb.scheduler.lock.wait.seconds",
                        scheduler,
                        s -> s.waitCounts().waitNanos() / 1e9)
                .description("Time writes spent waiting for conflict classes, in total")
                .tags(tags)
                .register(registry);
        FunctionCounter.builder(
                        "raidb.scheduler.deadlocks",
                        scheduler,
                        s -> s.waitCounts().deadlocks())
                .description("Transactions rolled back as the victim of a deadlock among conflict classes (40P01)")
                .tags(tags)
                .register(registry);
        FunctionCounter.builder(
                        "raidb.scheduler.lock.timeouts",
                        scheduler,
                        s -> s.waitCounts().timeouts())
                .description("Waits for a conflict class given up after the scheduler's lockTimeout (55P03)")
                .tags(tags)
                .register(registry);
        Gauge.builder("raidb.scheduler.waiting.writes", scheduler, WriteScheduler::waitingWrites)
                .description("Writes waiting for a conflict class now")
                .tags(tags)
                .strongReference(true)
                .register(registry);
    }
}
