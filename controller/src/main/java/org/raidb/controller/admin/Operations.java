package org.raidb.controller.admin;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The controller's long-running operations, running and recently finished. Dump, restore and replay code calls
 * {@link #start} and reports progress on the {@link Operation} it gets; the admin API lists them.
 */
public final class Operations {
    /** Finished operations kept so that a console that arrives late still sees how they ended. */
    static final int FINISHED_KEPT = 50;

    private final Clock clock;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Operation> byId = new ConcurrentSkipListMap<>();

    public Operations() {
        this(Clock.systemUTC());
    }

    Operations(Clock clock) {
        this.clock = clock;
    }

    /**
     * Registers a running operation.
     *
     * @param kind what it does: "dump", "restore", "replay"
     * @param target what it works on, usually a backend name
     * @param unit what {@link Operation#advance} counts: "entries", "rows", "bytes"
     * @param total how many units in all, -1 when not known yet
     */
    public Operation start(String kind, String virtualDatabase, String target, String unit, long total) {
        Operation op = new Operation(ids.incrementAndGet(), kind, virtualDatabase, target, unit, total, clock);
        byId.put(op.id(), op);
        forgetOldFinished();
        return op;
    }

    public Optional<Operation> get(long id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** Oldest first. */
    public List<Operation> all() {
        return new ArrayList<>(byId.values());
    }

    private void forgetOldFinished() {
        long finished = byId.values().stream().filter(o -> !o.isRunning()).count();
        for (Iterator<Operation> it = byId.values().iterator(); it.hasNext() && finished > FINISHED_KEPT; ) {
            if (!it.next().isRunning()) {
                it.remove();
                finished--;
            }
        }
    }
}
