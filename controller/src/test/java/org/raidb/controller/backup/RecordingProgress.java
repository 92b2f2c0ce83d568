package org.raidb.controller.backup;

import java.util.ArrayList;
import java.util.List;

/** Keeps what a backuper reported, step by step. */
public final class RecordingProgress implements CopyProgress {

    /** One step as reported: its begin() and the sum of its advance() calls. */
    public record Step(String name, String unit, long total, long done) {}

    private final List<Step> steps = new ArrayList<>();

    @Override
    public synchronized void begin(String step, String unit, long total) {
        steps.add(new Step(step, unit, total, 0));
    }

    @Override
    public synchronized void advance(long units) {
        Step current = steps.remove(steps.size() - 1);
        steps.add(new Step(current.name(), current.unit(), current.total(), current.done() + units));
    }

    public synchronized List<Step> steps() {
        return List.copyOf(steps);
    }
}
