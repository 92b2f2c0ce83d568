package org.raidb.controller.it.transactions;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.scheduler.WriteScheduler;

/**
 * Steps of the scheduler's tests on the virtual database "shop": statements run one after the other
 * on a connection of their own, a statement sent from another thread (it may wait for a conflict
 * class), and the controller's count of writes waiting, which says "waits" without a clock.
 */
final class SchedulerSteps {
    private SchedulerSteps() {}

    static WriteScheduler scheduler(ControllerFixture raidb) {
        return raidb.controller().virtualDatabase("shop").scheduler();
    }

    static void awaitWaiting(ControllerFixture raidb, int writes) {
        await().atMost(1, TimeUnit.MINUTES).until(() -> scheduler(raidb).waitingWrites() == writes);
    }

    static void execute(ControllerFixture raidb, String... statements) throws SQLException {
        try (Connection c = raidb.connect();
                Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    @FunctionalInterface
    interface SqlCall<T> {
        T call() throws SQLException;
    }

    /** The call on another thread: the test goes on while it waits. */
    static <T> CompletableFuture<T> async(SqlCall<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call.call();
            } catch (SQLException e) {
                throw new CompletionException(e);
            }
        });
    }
}
