package org.raidb.controller.cli;

import org.raidb.controller.Controller;
import org.raidb.controller.config.RaidbConfig;

/**
 * What {@link ControllerCommand} needs of a controller. An interface so that the command can be tested without
 * opening ports; {@link #start} is the real thing.
 */
public interface RunningController extends AutoCloseable {

    int port();

    void awaitTermination() throws InterruptedException;

    @Override
    void close();

    /** Starts a controller for a configuration. */
    @FunctionalInterface
    interface Launcher {
        RunningController start(RaidbConfig config) throws Exception;
    }

    /** Starts a real {@link Controller}. */
    static RunningController start(RaidbConfig config) throws Exception {
        return of(Controller.start(config));
    }

    /** A controller started by other means (with resources of the caller's choosing). */
    static RunningController of(Controller controller) {
        return new RunningController() {
            @Override
            public int port() {
                return controller.port();
            }

            @Override
            public void awaitTermination() throws InterruptedException {
                controller.awaitTermination();
            }

            @Override
            public void close() {
                controller.close();
            }
        };
    }
}
