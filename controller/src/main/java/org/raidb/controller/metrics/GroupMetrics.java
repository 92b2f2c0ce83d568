package org.raidb.controller.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.raidb.controller.group.ActiveReplication;

/**
 * A virtual database's controller group as this member sees it, without asking the others: the size of its
 * view, writes delivered in the group's order and applied here, writes waiting for a conflict class.
 */
final class GroupMetrics {
    private GroupMetrics() {}

    static void bind(MeterRegistry registry, String vdb, ActiveReplication group) {
        Tags tags = Tags.of("vdb", vdb);
        Gauge.builder("raidb.group.view.members", group, g -> g.viewMembers().size())
                .description("Controllers in the group's current view, this one included")
                .tags(tags)
                .strongReference(true)
                .register(registry);
        FunctionCounter.builder("raidb.group.delivered.writes", group, ActiveReplication::deliveredWrites)
                .description("Writes delivered to this controller in the group's order since it joined")
                .tags(tags)
                .register(registry);
        FunctionCounter.builder("raidb.group.applied.writes", group, ActiveReplication::appliedWrites)
                .description("Writes delivered in the group's order that this controller finished on its backends")
                .tags(tags)
                .register(registry);
        Gauge.builder("raidb.group.waiting.writes", group, ActiveReplication::waitingWrites)
                .description("Writes delivered in the group's order waiting for a conflict class now")
                .tags(tags)
                .strongReference(true)
                .register(registry);
    }
}
