package org.raidb.controller.verify;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.raidb.controller.recovery.Progress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a virtual database's verify every so often ({@code <verify every="1h"/>}): the verifier logs each result
 * and keeps the last for the admin API; a verify that cannot run is logged here and tried again next time.
 */
public final class VerifySchedule implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(VerifySchedule.class);

    private final ScheduledExecutorService timer;

    private VerifySchedule(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** The first verify runs one period after the start: the backends are busy starting before that. */
    public static VerifySchedule start(String vdb, ReplicaVerifier verifier, Duration every) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "raidb-" + vdb + "-verify-schedule");
            t.setDaemon(true);
            return t;
        });
        long millis = every.toMillis();
        // Each run catches what it throws, so the future never holds a failure worth reading.
        var unused = timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        verifier.verify(false).run(Progress.NONE);
                    } catch (SQLException | RuntimeException e) {
                        log.warn("scheduled verify of {} did not run: {}", vdb, e.getMessage());
                    }
                },
                millis,
                millis,
                TimeUnit.MILLISECONDS);
        log.info("virtual database {}: verify scheduled every {}", vdb, every);
        return new VerifySchedule(timer);
    }

    /** Stops the schedule; a verify running now is interrupted where it waits. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
