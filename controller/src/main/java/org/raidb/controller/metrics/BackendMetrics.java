package org.raidb.controller.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.raidb.controller.backend.BackendState;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.vdb.VirtualDatabase;

/**
 * The backends of one virtual database: each one's state (one {@code raidb_backend_state} series per state, 1
 * for the one it is in) and the requests it is running. Backends come and go online (add backend, remove),
 * so {@link #refresh} binds the new and unbinds the gone before each scrape.
 */
final class BackendMetrics {
    private final MeterRegistry registry;
    private final VirtualDatabase vdb;
    private final Map<DatabaseBackend, List<Meter>> bound = new HashMap<>();

    BackendMetrics(MeterRegistry registry, VirtualDatabase vdb) {
        this.registry = registry;
        this.vdb = vdb;
        refresh();
    }

    synchronized void refresh() {
        List<DatabaseBackend> now = vdb.backends();
        for (DatabaseBackend b : now) {
            bound.computeIfAbsent(b, this::bind);
        }
        bound.entrySet().removeIf(e -> {
            if (now.contains(e.getKey())) {
                return false;
            }
            e.getValue().forEach(registry::remove);
            return true;
        });
    }

    private List<Meter> bind(DatabaseBackend b) {
        List<Meter> meters = new ArrayList<>();
        for (BackendState state : BackendState.values()) {
            meters.add(Gauge.builder("raidb.backend.state", b, x -> x.state() == state ? 1 : 0)
                    .description("1 for the state the backend is in (enabled, disabled, recovering), 0 for the others")
                    .tag("vdb", vdb.name())
                    .tag("backend", b.name())
                    .tag("state", state.name().toLowerCase(Locale.ROOT))
                    .strongReference(true)
                    .register(registry));
        }
        meters.add(Gauge.builder("raidb.backend.pending.requests", b, DatabaseBackend::pendingRequests)
                .description("Requests running on the backend now")
                .tag("vdb", vdb.name())
                .tag("backend", b.name())
                .strongReference(true)
                .register(registry));
        return meters;
    }
}
