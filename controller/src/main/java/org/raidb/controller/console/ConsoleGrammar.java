package org.raidb.controller.console;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The console's command language, C-JDBC style: {@code show backends shop}, {@code disable pg2 in shop}. Command
 * words are case-insensitive; names (virtual databases, backends) are kept as typed.
 */
final class ConsoleGrammar {
  private static final List<String> SHOWABLE = List.of("virtualdatabases", "backends", "checkpoints", "dumps",
      "operations");

  private ConsoleGrammar() {}

  static ConsoleAction parse(String line) throws ConsoleUsageException {
    List<String> words = Arrays.stream(line.trim().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    if (words.isEmpty()) {
      return new ConsoleAction.Nothing();
    }
    String verb = words.get(0).toLowerCase(Locale.ROOT);
    List<String> rest = words.subList(1, words.size());
    return switch (verb) {
      case "show" -> show(rest);
      case "watch" -> watch(rest);
      case "disable" -> disable(rest);
      case "shutdown" -> noArguments(rest, "shutdown", new ConsoleAction.Shutdown());
      case "help" -> help(rest);
      case "exit", "quit" -> noArguments(rest, verb, new ConsoleAction.Exit());
      default -> throw new ConsoleUsageException("unknown command '" + words.get(0) + "': type 'help' for the list "
          + "of commands");
    };
  }

  private static ConsoleAction show(List<String> rest) throws ConsoleUsageException {
    if (rest.isEmpty()) {
      throw new ConsoleUsageException("show what? " + String.join(", ", SHOWABLE));
    }
    String what = rest.get(0).toLowerCase(Locale.ROOT);
    List<String> args = rest.subList(1, rest.size());
    return switch (what) {
      case "virtualdatabases" -> noArguments(args, "show virtualdatabases", new ConsoleAction.ShowVirtualDatabases());
      case "operations" -> noArguments(args, "show operations", new ConsoleAction.ShowOperations());
      case "backends" -> new ConsoleAction.ShowBackends(optionalName(args, "show backends"));
      case "checkpoints" -> new ConsoleAction.ShowCheckpoints(optionalName(args, "show checkpoints"));
      case "dumps" -> new ConsoleAction.ShowDumps(optionalName(args, "show dumps"));
      default -> throw new ConsoleUsageException("cannot show '" + rest.get(0) + "': show " + String.join(", ",
          SHOWABLE));
    };
  }

  private static ConsoleAction watch(List<String> rest) throws ConsoleUsageException {
    if (rest.size() != 2 || !rest.get(0).equalsIgnoreCase("operation")) {
      throw usage("watch operation");
    }
    try {
      return new ConsoleAction.WatchOperation(Long.parseLong(rest.get(1)));
    } catch (NumberFormatException e) {
      throw new ConsoleUsageException("'" + rest.get(1) + "' is not an operation id: 'show operations' lists them");
    }
  }

  private static ConsoleAction disable(List<String> rest) throws ConsoleUsageException {
    if (rest.size() == 1) {
      return new ConsoleAction.Disable(rest.get(0), null);
    }
    if (rest.size() == 3 && rest.get(1).equalsIgnoreCase("in")) {
      return new ConsoleAction.Disable(rest.get(0), rest.get(2));
    }
    throw usage("disable");
  }

  private static ConsoleAction help(List<String> rest) throws ConsoleUsageException {
    if (rest.isEmpty()) {
      return new ConsoleAction.Help(null);
    }
    String topic = String.join(" ", rest);
    if (CommandHelp.find(topic).isEmpty() && CommandHelp.ALL.stream().noneMatch(h -> h.name().startsWith(
        topic.toLowerCase(Locale.ROOT) + " "))) {
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
}
