package org.raidb.tpcw.cli;

/** An exception and its causes as one line, without the repeats that wrapping produces. */
final class OneLine {

    private OneLine() {}

    static String of(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            message = message.lines().findFirst().orElse("").strip();
            if (!message.isEmpty() && text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        return text.toString();
    }
}
