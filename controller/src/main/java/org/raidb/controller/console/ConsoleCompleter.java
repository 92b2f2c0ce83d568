package org.raidb.controller.console;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

/**
 * Tab completion: command words from {@link CommandHelp}, and virtual database, backend and operation names asked
 * from the admin API at the moment Tab is pressed (so that it follows the controller, not the console's start).
 */
final class ConsoleCompleter implements Completer {

  /** What completion needs from the controller; a failing call just offers nothing. */
  interface Names {
    List<String> virtualDatabases();

    List<String> backends();

    List<String> operations();
  }

  private final Names names;

  ConsoleCompleter(Names names) {
    this.names = names;
  }

  @Override
  public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
    for (String word : candidates(line.words().subList(0, line.wordIndex()))) {
      candidates.add(new Candidate(word));
    }
  }

  /** The words that may follow {@code before}, the complete words typed so far. */
  List<String> candidates(List<String> before) {
    List<String> words = before.stream().map(w -> w.toLowerCase(Locale.ROOT)).toList();
    if (words.isEmpty()) {
      return firstWords();
    }
    String verb = words.get(0);
    int n = words.size();
    if (verb.equals("help")) {
      return n == 1 ? firstWords() : nextCommandWords(words.subList(1, n));
    }
    if (verb.equals("show") && n == 1) {
      return nextCommandWords(words);
    }
    if (verb.equals("show") && n == 2 && List.of("backends", "checkpoints", "dumps").contains(words.get(1))) {
      return names.virtualDatabases();
    }
    if (verb.equals("watch")) {
      return n == 1 ? List.of("operation") : n == 2 ? names.operations() : List.of();
    }
    if (verb.equals("disable")) {
      return n == 1 ? names.backends() : n == 2 ? List.of("in") : n == 3 ? names.virtualDatabases() : List.of();
    }
    return List.of();
  }

  private static List<String> firstWords() {
    Set<String> first = new LinkedHashSet<>();
    CommandHelp.ALL.forEach(h -> first.add(h.name().split(" ")[0]));
    first.add("quit");
    return new ArrayList<>(first);
  }

  /** The word after {@code typed} in multi-word command names ("show" → backends, checkpoints...). */
  private static List<String> nextCommandWords(List<String> typed) {
    String prefix = String.join(" ", typed) + " ";
    return CommandHelp.ALL.stream().map(CommandHelp::name).filter(name -> name.startsWith(prefix))
        .map(name -> name.substring(prefix.length()).split(" ")[0]).distinct().toList();
  }

  /** {@link Names} from the admin API. */
  static Names fromApi(AdminClient client) {
    return new Names() {
      @Override
      public List<String> virtualDatabases() {
        return collect("/api/virtualdatabases", "virtualDatabases", "name");
      }

      @Override
      public List<String> backends() {
        Set<String> backends = new LinkedHashSet<>();
        for (String vdb : virtualDatabases()) {
          backends.addAll(collect("/api/virtualdatabases/" + AdminClient.segment(vdb) + "/backends", "backends",
              "name"));
        }
        return new ArrayList<>(backends);
      }

      @Override
      public List<String> operations() {
        return collect("/api/operations", "operations", "id");
      }

      private List<String> collect(String path, String array, String field) {
        List<String> out = new ArrayList<>();
        try {
          for (JsonNode item : client.get(path).path(array)) {
            out.add(item.path(field).asText());
          }
        } catch (AdminCallException e) {
          // Completion is a convenience: when the controller does not answer, Tab offers nothing.
        }
        return out;
      }
    };
  }
}
