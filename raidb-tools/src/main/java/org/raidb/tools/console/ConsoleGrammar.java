package org.raidb.tools.console;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The console's command language, C-JDBC style: {@code show backends shop}, {@code disable pg2 in shop}. Command
 * words are case-insensitive; names (virtual databases, backends, dumps, checkpoints) are kept as typed.
 */
final class ConsoleGrammar {
    private static final List<String> SHOWABLE =
            List.of("virtualdatabases", "backends", "checkpoints", "dumps", "operations", "controllers");
    /** The settings {@code add backend} takes, spelled as the admin API's parameters. */
    static final List<String> BACKEND_SETTINGS =
            List.of("url", "user", "password", "from", "backuper", "weight", "poolSize");

    /** Makes {@code enable} take back a backend whose data diverged. */
    private static final String FORCE = "--force";
    /** Makes {@code verify} copy a majority's table over a differing copy. */
    private static final String REPAIR = "--repair";

    private ConsoleGrammar() {}

    static ConsoleAction parse(String line) throws ConsoleUsageException {
        List<String> words = Arrays.stream(line.trim().split("\\s+"))
                .filter(w -> !w.isEmpty())
                .toList();
        if (words.isEmpty()) {
            return new ConsoleAction.Nothing();
        }
        String verb = words.get(0).toLowerCase(Locale.ROOT);
        List<String> rest = words.subList(1, words.size());
        return switch (verb) {
            case "show" -> show(rest);
            case "watch" -> watch(rest);
            case "disable" -> disable(rest);
            case "enable" -> enable(rest);
            case "backup" -> backup(rest);
            case "restore" -> restore(rest);
            case "add" -> addBackend(rest);
            case "checkpoint" -> checkpoint(rest);
            case "purge" -> purgeLog(rest);
            case "verify" -> verify(rest);
            case "shutdown" -> noArguments(rest, "shutdown", new ConsoleAction.Shutdown());
            case "help" -> help(rest);
            case "exit", "quit" -> noArguments(rest, verb, new ConsoleAction.Exit());
            default ->
                throw new ConsoleUsageException(
                        "unknown command '" + words.get(0) + "': type 'help' for the list " + "of commands");
        };
    }

    private static ConsoleAction show(List<String> rest) throws ConsoleUsageException {
        if (rest.isEmpty()) {
            throw new ConsoleUsageException("show what? " + String.join(", ", SHOWABLE));
        }
        String what = rest.get(0).toLowerCase(Locale.ROOT);
        List<String> args = rest.subList(1, rest.size());
        return switch (what) {
            case "virtualdatabases" ->
                noArguments(args, "show virtualdatabases", new ConsoleAction.ShowVirtualDatabases());
            case "operations" -> noArguments(args, "show operations", new ConsoleAction.ShowOperations());
            case "backends" -> new ConsoleAction.ShowBackends(optionalName(args, "show backends"));
            case "checkpoints" -> new ConsoleAction.ShowCheckpoints(optionalName(args, "show checkpoints"));
            case "dumps" -> new ConsoleAction.ShowDumps(optionalName(args, "show dumps"));
            case "controllers" -> new ConsoleAction.ShowControllers(optionalName(args, "show controllers"));
            default ->
                throw new ConsoleUsageException(
                        "cannot show '" + rest.get(0) + "': show " + String.join(", ", SHOWABLE));
        };
    }

    private static ConsoleAction watch(List<String> rest) throws ConsoleUsageException {
        if (rest.size() != 2 || !rest.get(0).equalsIgnoreCase("operation")) {
            throw usage("watch operation");
        }
        try {
            return new ConsoleAction.WatchOperation(Long.parseLong(rest.get(1)));
        } catch (NumberFormatException e) {
            throw new ConsoleUsageException(
                    "'" + rest.get(1) + "' is not an operation id: 'show operations' lists them");
        }
    }

    private static ConsoleAction disable(List<String> rest) throws ConsoleUsageException {
        Target t = Target.of(rest);
        return new ConsoleAction.Disable(onlyBackend(t, "disable"), t.virtualDatabase());
    }

    private static ConsoleAction enable(List<String> rest) throws ConsoleUsageException {
        List<String> words =
                rest.stream().filter(w -> !w.equalsIgnoreCase(FORCE)).toList();
        if (rest.size() - words.size() > 1) {
            throw usage("enable");
        }
        Target t = Target.of(words);
        return new ConsoleAction.Enable(onlyBackend(t, "enable"), t.virtualDatabase(), words.size() < rest.size());
    }

    private static String onlyBackend(Target t, String command) throws ConsoleUsageException {
        if (t.args().size() != 1) {
            throw usage(command);
        }
        return t.args().get(0);
    }

    private static ConsoleAction backup(List<String> rest) throws ConsoleUsageException {
        Target t = Target.of(rest);
        List<String> args = t.args();
        if (args.size() == 1) {
            return new ConsoleAction.Backup(args.get(0), null, t.virtualDatabase());
        }
        if (args.size() == 3 && args.get(1).equalsIgnoreCase("as")) {
            return new ConsoleAction.Backup(args.get(0), args.get(2), t.virtualDatabase());
        }
        throw usage("backup");
    }

    private static ConsoleAction restore(List<String> rest) throws ConsoleUsageException {
        Target t = Target.of(rest);
        List<String> args = t.args();
        if (args.size() != 3 || !args.get(1).equalsIgnoreCase("from")) {
            throw usage("restore");
        }
        return new ConsoleAction.Restore(args.get(0), args.get(2), t.virtualDatabase());
    }

    private static ConsoleAction addBackend(List<String> rest) throws ConsoleUsageException {
        Target t = Target.of(rest);
        List<String> args = t.args();
        if (args.size() < 2
                || !args.get(0).equalsIgnoreCase("backend")
                || args.get(1).contains("=")) {
            throw usage("add backend");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (String word : args.subList(2, args.size())) {
            int eq = word.indexOf('=');
            String key = eq < 0
                    ? null
                    : BACKEND_SETTINGS.stream()
                            .filter(k -> k.equalsIgnoreCase(word.substring(0, eq)))
                            .findFirst()
                            .orElse(null);
            if (key == null) {
                throw new ConsoleUsageException("'" + word + "' is not a setting of add backend: it takes "
                        + String.join("=, ", BACKEND_SETTINGS) + "=");
            }
            // Split at the first '=' only: JDBC URLs and passwords may hold more.
            String value = word.substring(eq + 1);
            if (value.isEmpty()) {
                throw new ConsoleUsageException("setting '" + key + "' of add backend has no value: " + key + "=VALUE");
            }
            if (settings.put(key, value) != null) {
                throw new ConsoleUsageException("setting '" + key + "' of add backend is given twice");
            }
        }
        if (!settings.containsKey("url")) {
            throw usage("add backend");
        }
        return new ConsoleAction.AddBackend(args.get(1), settings, t.virtualDatabase());
    }

    private static ConsoleAction checkpoint(List<String> rest) throws ConsoleUsageException {
        Target t = Target.of(rest);
        List<String> args = t.args();
        // "checkpoint in" is a forgotten VDB far more often than a checkpoint named "in".
        if (args.size() > 1 || (args.size() == 1 && args.get(0).equalsIgnoreCase("in"))) {
            throw usage("checkpoint");
        }
        return new ConsoleAction.Checkpoint(args.isEmpty() ? null : args.get(0), t.virtualDatabase());
    }

    private static ConsoleAction purgeLog(List<String> rest) throws ConsoleUsageException {
        Target t = Target.of(rest);
        List<String> args = t.args();
        if (args.size() != 3
                || !args.get(0).equalsIgnoreCase("log")
                || !args.get(1).equalsIgnoreCase("before")) {
            throw usage("purge log");
        }
        return new ConsoleAction.PurgeLog(args.get(2), t.virtualDatabase());
    }

    private static ConsoleAction verify(List<String> rest) throws ConsoleUsageException {
        List<String> args =
                rest.stream().filter(w -> !w.equalsIgnoreCase(REPAIR)).toList();
        if (rest.size() - args.size() > 1 || args.size() > 1 || args.stream().anyMatch(w -> w.startsWith("-"))) {
            throw usage("verify");
        }
        return new ConsoleAction.Verify(args.isEmpty() ? null : args.get(0), args.size() < rest.size());
    }

    private static ConsoleAction help(List<String> rest) throws ConsoleUsageException {
        if (rest.isEmpty()) {
            return new ConsoleAction.Help(null);
        }
        String topic = String.join(" ", rest);
        if (CommandHelp.find(topic).isEmpty()
                && CommandHelp.ALL.stream().noneMatch(h -> h.name().startsWith(topic.toLowerCase(Locale.ROOT) + " "))) {
            throw new ConsoleUsageException("no command '" + topic + "': type 'help' for the list of commands");
        }
        return new ConsoleAction.Help(topic);
    }

    private static String optionalName(List<String> args, String command) throws ConsoleUsageException {
        if (args.size() > 1) {
            throw usage(command);
        }
        return args.isEmpty() ? null : args.get(0);
    }

    private static ConsoleAction noArguments(List<String> args, String command, ConsoleAction action)
            throws ConsoleUsageException {
        if (!args.isEmpty()) {
            throw usage(command);
        }
        return action;
    }

    private static ConsoleUsageException usage(String command) {
        CommandHelp help = CommandHelp.find(command).orElseThrow();
        return new ConsoleUsageException("usage: " + help.syntax() + "   (example: " + help.example() + ")");
    }

    /** A command's arguments with its optional trailing {@code in VDB} taken off (null: the only one). */
    private record Target(List<String> args, String virtualDatabase) {
        static Target of(List<String> rest) {
            int n = rest.size();
            if (n >= 2 && rest.get(n - 2).equalsIgnoreCase("in")) {
                return new Target(rest.subList(0, n - 2), rest.get(n - 1));
            }
            return new Target(rest, null);
        }
    }
}
