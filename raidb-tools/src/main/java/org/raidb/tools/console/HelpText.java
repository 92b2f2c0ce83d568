package org.raidb.tools.console;

import java.util.List;
import java.util.Locale;

/** What {@code help} and {@code help COMMAND} print, from {@link CommandHelp}. */
final class HelpText {
    private HelpText() {}

    static String of(String topic) {
        if (topic == null) {
            TextTable table = new TextTable("COMMAND", "WHAT IT DOES");
            for (CommandHelp h : CommandHelp.ALL) {
                table.row(h.syntax(), firstSentence(h.summary()));
            }
            return table.render() + "Type 'help COMMAND' for more, e.g. 'help disable'.\n";
        }
        String wanted = topic.trim().toLowerCase(Locale.ROOT);
        List<CommandHelp> matching = CommandHelp.find(wanted)
                .map(List::of)
                .orElseGet(() -> CommandHelp.ALL.stream()
                        .filter(h -> h.name().startsWith(wanted + " "))
                        .toList());
        StringBuilder out = new StringBuilder();
        for (CommandHelp h : matching) {
            out.append(h.syntax())
                    .append("\n  ")
                    .append(h.summary())
                    .append("\n  example: ")
                    .append(h.example())
                    .append('\n');
        }
        return out.toString();
    }

    private static String firstSentence(String text) {
        int end = text.indexOf(". ");
        return end < 0 ? text : text.substring(0, end + 1);
    }
}
