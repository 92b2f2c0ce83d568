package org.raidb.tools.console;

import java.util.Map;

/** A console command line once parsed by {@link ConsoleGrammar}. A null virtual database means "the only one". */
sealed interface ConsoleAction {
    record ShowVirtualDatabases() implements ConsoleAction {}

    record ShowBackends(String virtualDatabase) implements ConsoleAction {}

    record ShowCheckpoints(String virtualDatabase) implements ConsoleAction {}

    record ShowDumps(String virtualDatabase) implements ConsoleAction {}

    record ShowControllers(String virtualDatabase) implements ConsoleAction {}

    record ShowOperations() implements ConsoleAction {}

    record WatchOperation(long id) implements ConsoleAction {}

    record Disable(String backend, String virtualDatabase) implements ConsoleAction {}

    /**
     * Brings a disabled backend back: the log is replayed, then it is enabled.
     *
     * @param force enable a backend whose data diverged, which the controller otherwise refuses */
    record Enable(String backend, String virtualDatabase, boolean force) implements ConsoleAction {
        Enable(String backend, String virtualDatabase) {
            this(backend, virtualDatabase, false);
        }
    }

    /**
     * Dumps a backend at a checkpoint.
     *
     * @param dump the new dump's name, null to let the controller name it */
    record Backup(String backend, String dump, String virtualDatabase) implements ConsoleAction {}

    record Restore(String backend, String dump, String virtualDatabase) implements ConsoleAction {}

    /**
     * Adds a backend to a virtual database.
     *
     * @param settings the API's parameters for the new backend (url, user, from...), by their API names */
    record AddBackend(String name, Map<String, String> settings, String virtualDatabase) implements ConsoleAction {
        public AddBackend {
            settings = Map.copyOf(settings);
        }
    }

    /**
     * Takes a checkpoint of the recovery log.
     *
     * @param name null to let the controller name it */
    record Checkpoint(String name, String virtualDatabase) implements ConsoleAction {}

    /**
     * Compares every table among the backends holding it, while clients write.
     *
     * @param repair copy the majority's copy over each differing one */
    record Verify(String virtualDatabase, boolean repair) implements ConsoleAction {}

    record PurgeLog(String beforeCheckpoint, String virtualDatabase) implements ConsoleAction {}

    record Shutdown() implements ConsoleAction {}

    /**
     * Shows the help of the console.
     *
     * @param topic the command asked about, null for the list of commands */
    record Help(String topic) implements ConsoleAction {}

    record Exit() implements ConsoleAction {}

    /** A blank line: nothing to do. */
    record Nothing() implements ConsoleAction {}
}
