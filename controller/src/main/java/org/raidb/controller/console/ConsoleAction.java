package org.raidb.controller.console;

/** A console command line once parsed by {@link ConsoleGrammar}. A null virtual database means "the only one". */
sealed interface ConsoleAction {
  record ShowVirtualDatabases() implements ConsoleAction {}

  record ShowBackends(String virtualDatabase) implements ConsoleAction {}

  record ShowCheckpoints(String virtualDatabase) implements ConsoleAction {}

  record ShowDumps(String virtualDatabase) implements ConsoleAction {}

  record ShowOperations() implements ConsoleAction {}

  record WatchOperation(long id) implements ConsoleAction {}

  record Disable(String backend, String virtualDatabase) implements ConsoleAction {}

  record Shutdown() implements ConsoleAction {}

  /** @param topic the command asked about, null for the list of commands */
  record Help(String topic) implements ConsoleAction {}

  record Exit() implements ConsoleAction {}

  /** A blank line: nothing to do. */
  record Nothing() implements ConsoleAction {}
}
