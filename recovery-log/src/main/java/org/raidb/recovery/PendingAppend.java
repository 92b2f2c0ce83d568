package org.raidb.recovery;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * An entry that has its position but may not be durable yet. The position is known at once so that
 * the controller can assign it inside its ordering critical section and execute the statement while
 * the store commits; it must {@link #await()} before telling the client the write succeeded.
 */
public record PendingAppend(long position, CompletableFuture<Long> durable) {

    /** Waits until the entry is committed in the store; returns its position. */
    public long await() throws RecoveryLogException {
        try {
            return durable.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RecoveryLogException(
                    "Interrupted while waiting for log entry " + position + " to be durable",
                    RecoveryLogException.QUERY_CANCELED,
                    e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RecoveryLogException r) {
                throw r;
            }
            throw new RecoveryLogException(
                    "Log entry " + position + " could not be written: " + e.getCause(),
                    RecoveryLogException.IO_ERROR,
                    e.getCause());
        }
    }
}
