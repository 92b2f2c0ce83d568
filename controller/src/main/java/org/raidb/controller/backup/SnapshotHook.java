package org.raidb.controller.backup;

import java.util.Objects;

/**
 * The {@code snapshotTaken} callback of {@link Backuper#dump(BackendEndpoint, java.nio.file.Path, CopyProgress,
 * Runnable)}, run at most once: {@link #fire} where the backuper's snapshot is fixed, {@link #close} (in a
 * try-with-resources around the whole dump) when the dump ends without having got there, so that a caller holding
 * writes always gets to release them, whether the dump succeeds or fails. Used on the dumping thread only.
 */
public final class SnapshotHook implements AutoCloseable {

    private Runnable pending;

    public SnapshotHook(Runnable snapshotTaken) {
        this.pending = Objects.requireNonNull(snapshotTaken, "snapshotTaken");
    }

    /** Runs the callback unless it has run already. */
    public void fire() {
        Runnable callback = pending;
        if (callback != null) {
            pending = null;
            callback.run();
        }
    }

    /** Runs the callback if the dump never fired it. */
    @Override
    public void close() {
        fire();
    }
}
