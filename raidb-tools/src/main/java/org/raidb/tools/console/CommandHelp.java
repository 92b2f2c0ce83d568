package org.raidb.tools.console;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The console's commands as people read them: syntax, what each does, an example. The source of {@code help}, of
 * the first words tab completion offers, and of the docs/admin.md table.
 */
record CommandHelp(String name, String syntax, String summary, String example) {

    static final List<CommandHelp> ALL = List.of(
            new CommandHelp(
                    "show virtualdatabases",
                    "show virtualdatabases",
                    "List the virtual databases you administer: RAIDb level, scheduler, completion and read policy, "
                            + "enabled backends, writes waiting for a lock.",
                    "show virtualdatabases"),
            new CommandHelp(
                    "show backends",
                    "show backends [VDB]",
                    "List the backends of a virtual database (of all you administer when VDB is left out): state, why "
                            + "disabled, pending requests, requests served, weight, last checkpoint, URL, the tables each holds and those "
                            + "disabled on it.",
                    "show backends shop"),
            new CommandHelp(
                    "show checkpoints",
                    "show checkpoints [VDB]",
                    "List the checkpoints of the recovery log of a virtual database.",
                    "show checkpoints shop"),
            new CommandHelp(
                    "show dumps",
                    "show dumps [VDB]",
                    "List the dumps (backups) registered for a virtual database.",
                    "show dumps shop"),
            new CommandHelp(
                    "show controllers",
                    "show controllers [VDB]",
                    "List the controllers of a virtual database's controller group: the group, its view, each member "
                            + "with its backends and the writes delivered to it and applied by it.",
                    "show controllers shop"),
            new CommandHelp(
                    "show operations",
                    "show operations",
                    "List long-running operations (replay, backup, restore, add backend) with their progress.",
                    "show operations"),
            new CommandHelp(
                    "watch operation",
                    "watch operation ID",
                    "Redraw the progress of one operation (done of total, rate, time left) until it ends; Ctrl-C stops "
                            + "watching, not the operation.",
                    "watch operation 3"),
            new CommandHelp(
                    "disable",
                    "disable BACKEND [in VDB]",
                    "Take a backend out of its virtual database: it receives nothing more. VDB may be left out when you "
                            + "administer only one. The answer names the checkpoint it stopped at.",
                    "disable pg2 in shop"),
            new CommandHelp(
                    "enable",
                    "enable BACKEND [--force] [in VDB]",
                    "Bring a disabled backend back: replay the recovery log from its last checkpoint while clients go on "
                            + "writing, then enable it. Shows the replay's progress until it ends; Ctrl-C stops watching, not the "
                            + "replay. A backend disabled because its data diverged is refused (restore it, or add it again); "
                            + "--force enables it anyway, logged with your name.",
                    "enable pg2 in shop"),
            new CommandHelp(
                    "backup",
                    "backup BACKEND [as NAME] [in VDB]",
                    "Dump a backend at a checkpoint, without stopping the others: an enabled backend is disabled for the "
                            + "dump and enabled again by replay. NAME defaults to BACKEND and the time. Shows progress until it "
                            + "ends.",
                    "backup pg2 as nightly in shop"),
            new CommandHelp(
                    "restore",
                    "restore BACKEND from DUMP [in VDB]",
                    "Load a dump into a disabled backend and put it at the dump's checkpoint; then 'enable BACKEND' "
                            + "replays the log from there. Shows progress until it ends.",
                    "restore pg2 from nightly in shop"),
            new CommandHelp(
                    "add backend",
                    "add backend NAME url=JDBC_URL [user=U] [password=P] [from=BACKEND] [backuper=pgDump|jdbcCopy] "
                            + "[weight=N] [poolSize=N] [in VDB]",
                    "Add a backend at run time: copy an enabled backend (from=, default the first enabled one) into it at "
                            + "a checkpoint, replay the log, enable it. Shows progress until it ends. Values cannot hold spaces.",
                    "add backend pg3 url=jdbc:postgresql://10.0.0.3:5432/shop user=raidb password=secret from=pg1"),
            new CommandHelp(
                    "checkpoint",
                    "checkpoint [NAME] [in VDB]",
                    "Mark the current write position in the recovery log with a name (the controller chooses one when NAME "
                            + "is left out).",
                    "checkpoint before-upgrade in shop"),
            new CommandHelp(
                    "purge log",
                    "purge log before CHECKPOINT [in VDB]",
                    "Delete the recovery log entries older than a checkpoint. Refused while a disabled backend or a dump "
                            + "still needs them.",
                    "purge log before before-upgrade in shop"),
            new CommandHelp(
                    "verify",
                    "verify [VDB] [--repair]",
                    "Compare every table among the enabled backends that hold it (row count and checksum, each backend "
                            + "reading one snapshot taken at the same point of the write order) while clients go on "
                            + "writing; list the tables and the backends that differ. --repair copies the copy that more "
                            + "than half of a table's holders share over each differing one, writes held meanwhile. "
                            + "Exits with 1 when a table differs and was not repaired.",
                    "verify shop --repair"),
            new CommandHelp(
                    "shutdown",
                    "shutdown",
                    "Stop the controller: clients are disconnected, open transactions rolled back. Needs the admin of every "
                            + "virtual database.",
                    "shutdown"),
            new CommandHelp("help", "help [COMMAND]", "List the commands, or explain one.", "help disable"),
            new CommandHelp("exit", "exit | quit", "Leave the console (interactive mode).", "exit"));

    /** The help of a command named by its words ("show backends", "disable", "quit"). */
    static Optional<CommandHelp> find(String words) {
        String wanted = words.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        String name = wanted.equals("quit") ? "exit" : wanted;
        return ALL.stream().filter(h -> h.name().equals(name)).findFirst();
    }
}
