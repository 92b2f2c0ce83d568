package org.raidb.tools.console;

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
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;

/**
 * Tab completion: command words from {@link CommandHelp}, and virtual database, backend, dump, checkpoint and
 * operation names asked from the admin API at the moment Tab is pressed (so that it follows the controller, not the
 * console's start).
 */
final class ConsoleCompleter implements Completer {

    /** What completion needs from the controller; a failing call just offers nothing. */
    interface Names {
        List<String> virtualDatabases();

        List<String> backends();

        List<String> operations();

        List<String> dumps();

        List<String> checkpoints();
    }

    /** The backuper names {@code add backend ... backuper=} accepts. */
    private static final List<String> BACKUPERS = List.of("pgDump", "jdbcCopy");
    /** The commands that end with an optional {@code in VDB}. */
    private static final Set<String> TAKES_IN =
            Set.of("disable", "enable", "backup", "restore", "add", "checkpoint", "purge");

    private final Names names;

    ConsoleCompleter(Names names) {
        this.names = names;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        for (String word : candidates(line.words().subList(0, line.wordIndex()))) {
            // "url=" is half a word: no space after it.
            boolean whole = !word.endsWith("=");
            candidates.add(new Candidate(word, word, null, null, null, null, whole));
        }
    }

    /** The words that may follow {@code before}, the complete words typed so far. */
    List<String> candidates(List<String> before) {
        List<String> words =
                before.stream().map(w -> w.toLowerCase(Locale.ROOT)).toList();
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
        if (verb.equals("show")
                && n == 2
                && List.of("backends", "checkpoints", "dumps", "controllers").contains(words.get(1))) {
            return names.virtualDatabases();
        }
        if (verb.equals("watch")) {
            return n == 1 ? List.of("operation") : n == 2 ? names.operations() : List.of();
        }
        if (TAKES_IN.contains(verb) && words.get(n - 1).equals("in")) {
            return names.virtualDatabases();
        }
        if (words.contains("in")) {
            return List.of();
        }
        return switch (verb) {
            case "disable", "enable" -> n == 1 ? names.backends() : n == 2 ? List.of("in") : List.of();
            case "backup" ->
                n == 1 ? names.backends() : n == 2 ? List.of("as", "in") : n == 4 ? List.of("in") : List.of();
            case "restore" ->
                n == 1
                        ? names.backends()
                        : n == 2 ? List.of("from") : n == 3 ? names.dumps() : n == 4 ? List.of("in") : List.of();
            case "checkpoint" -> n <= 2 ? List.of("in") : List.of();
            case "verify" -> n == 1 ? names.virtualDatabases() : n == 2 ? List.of("--repair") : List.of();
            case "purge" ->
                n == 1
                        ? List.of("log")
                        : n == 2
                                ? List.of("before")
                                : n == 3 ? names.checkpoints() : n == 4 ? List.of("in") : List.of();
            case "add" -> n == 1 ? List.of("backend") : n == 2 ? List.of() : backendSettings(words.subList(3, n));
            default -> List.of();
        };
    }

    /** The settings of {@code add backend} not given yet, whole where the values are known, and "in". */
    private List<String> backendSettings(List<String> given) {
        List<String> out = new ArrayList<>();
        for (String setting : ConsoleGrammar.BACKEND_SETTINGS) {
            if (given.stream().anyMatch(w -> w.startsWith(setting.toLowerCase(Locale.ROOT) + "="))) {
                continue;
            }
            if (setting.equals("from")) {
                names.backends().forEach(b -> out.add("from=" + b));
            } else if (setting.equals("backuper")) {
                BACKUPERS.forEach(b -> out.add("backuper=" + b));
            } else {
                out.add(setting + "=");
            }
        }
        out.add("in");
        return out;
    }

    private static List<String> firstWords() {
        Set<String> first = new LinkedHashSet<>();
        CommandHelp.ALL.forEach(h -> first.add(firstWord(h.name())));
        first.add("quit");
        return new ArrayList<>(first);
    }

    /** The word after {@code typed} in multi-word command names ("show" → backends, checkpoints...). */
    private static List<String> nextCommandWords(List<String> typed) {
        String prefix = String.join(" ", typed) + " ";
        return CommandHelp.ALL.stream()
                .map(CommandHelp::name)
                .filter(name -> name.startsWith(prefix))
                .map(name -> firstWord(name.substring(prefix.length())))
                .distinct()
                .toList();
    }

    /** The first word of some command words ("show backends" → show). */
    private static String firstWord(String words) {
        int space = words.indexOf(' ');
        return space < 0 ? words : words.substring(0, space);
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
                return fromEveryVirtualDatabase("backends");
            }

            @Override
            public List<String> operations() {
                return collect("/api/operations", "operations", "id");
            }

            @Override
            public List<String> dumps() {
                return fromEveryVirtualDatabase("dumps");
            }

            @Override
            public List<String> checkpoints() {
                return fromEveryVirtualDatabase("checkpoints");
            }

            /** The names in {@code /api/virtualdatabases/{vdb}/{list}} of every virtual database, each once. */
            private List<String> fromEveryVirtualDatabase(String list) {
                Set<String> all = new LinkedHashSet<>();
                for (String vdb : virtualDatabases()) {
                    all.addAll(collect("/api/virtualdatabases/" + AdminClient.segment(vdb) + "/" + list, list, "name"));
                }
                return new ArrayList<>(all);
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
