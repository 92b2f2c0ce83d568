package org.raidb.controller.metrics;

import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.raidb.controller.group.ActiveReplication;
import org.raidb.controller.group.ReplicationProtocol;
import org.raidb.controller.vdb.VirtualDatabase;

/**
 * The controller's meters, in its one registry: each subsystem of each virtual database bound by a class of
 * this package, and the JVM's own. {@code /metrics} (the admin port, or {@link MetricsListener}) reads them
 * with {@link #scrape}. docs/admin.md lists every metric.
 */
public final class ControllerMetrics {
    /** What Prometheus asks for and gets: its text format, version 0.0.4. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final List<BackendMetrics> backends = new ArrayList<>();

    /**
     * Binds the started virtual databases (and their controller groups) to {@code registry}; their
     * requests are timed from now on.
     */
    public ControllerMetrics(
            PrometheusMeterRegistry registry,
            Map<String, VirtualDatabase> virtualDatabases,
            Map<String, ReplicationProtocol> protocols) {
        this.registry = registry;
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        for (VirtualDatabase vdb : virtualDatabases.values()) {
            vdb.requests().listenWith(new RequestMetrics(registry, vdb.name()));
            backends.add(new BackendMetrics(registry, vdb));
            SchedulerMetrics.bind(registry, vdb.name(), vdb.scheduler());
            RecoveryMetrics.bind(registry, vdb.name(), vdb.writeLog(), vdb.recovery());
            CacheMetrics.bind(registry, vdb.name(), vdb.resultCache());
            if (protocols.get(vdb.name()) instanceof ActiveReplication group) {
                GroupMetrics.bind(registry, vdb.name(), group);
            }
        }
    }

    /** Every metric now, in Prometheus' text format; backends added or removed since the last scrape included. */
    public String scrape() {
        backends.forEach(BackendMetrics::refresh);
        return registry.scrape();
    }
}
