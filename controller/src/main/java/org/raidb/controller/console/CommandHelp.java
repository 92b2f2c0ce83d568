package org.raidb.controller.console;

import java.util.List;
import java.util.Optional;

/**
 * The console's commands as people read them: syntax, what each does, an example. The source of {@code help}, of
 * the first words tab completion offers, and of the docs/admin.md table.
 */
record CommandHelp(String name, String syntax, String summary, String example) {

  static final List<CommandHelp> ALL = List.of(
      new CommandHelp("show virtualdatabases", "show virtualdatabases",
          "List the virtual databases you administer: RAIDb level, scheduler, completion and read policy, "
              + "enabled backends, writes waiting for a lock.", "show virtualdatabases"),
      new CommandHelp("show backends", "show backends [VDB]",
          "List the backends of a virtual database (of all you administer when VDB is left out): state, why "
              + "disabled, pending requests, requests served, weight, last checkpoint, URL.", "show backends shop"),
      new CommandHelp("show checkpoints", "show checkpoints [VDB]",
          "List the checkpoints of the recovery log of a virtual database.", "show checkpoints shop"),
      new CommandHelp("show dumps", "show dumps [VDB]",
          "List the dumps (backups) registered for a virtual database.", "show dumps shop"),
      new CommandHelp("show operations", "show operations",
          "List long-running operations (dump, restore, replay) with their progress.", "show operations"),
      new CommandHelp("watch operation", "watch operation ID",
          "Redraw the progress of one operation (done of total, rate, time left) until it ends; Ctrl-C stops "
              + "watching, not the operation.", "watch operation 3"),
      new CommandHelp("disable", "disable BACKEND [in VDB]",
          "Take a backend out of its virtual database: it receives nothing more. VDB may be left out when you "
              + "administer only one.", "disable pg2 in shop"),
      new CommandHelp("shutdown", "shutdown",
          "Stop the controller: clients are disconnected, open transactions rolled back. Needs the admin of every "
              + "virtual database.", "shutdown"),
      new CommandHelp("help", "help [COMMAND]", "List the commands, or explain one.", "help disable"),
      new CommandHelp("exit", "exit | quit", "Leave the console (interactive mode).", "exit"));

  /** The help of a command named by its words ("show backends", "disable", "quit"). */
  static Optional<CommandHelp> find(String words) {
    String wanted = words.trim().toLowerCase().replaceAll("\\s+", " ");
    String name = wanted.equals("quit") ? "exit" : wanted;
    return ALL.stream().filter(h -> h.name().equals(name)).findFirst();
  }
}
