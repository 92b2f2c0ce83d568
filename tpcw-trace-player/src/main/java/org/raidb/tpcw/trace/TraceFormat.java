package org.raidb.tpcw.trace;

/**
 * The trace file's text format (docs/tpcw.md): a magic first line with the format and schema
 * versions, {@code #} metadata lines, one tab-separated line per event, and an END line with the
 * counts, whose absence means the file was cut short.
 */
final class TraceFormat {

    static final String MAGIC = "RAIDB-TPCW-TRACE";
    static final int FORMAT_VERSION = 1;
    static final String END = "END";

    private TraceFormat() {}

    /** Backslash, tab, newline and carriage return escaped, so that every event is one line. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            switch (ch) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }

    /** The inverse of {@link #escape}; null for a backslash followed by anything else (a damaged line). */
    static String unescape(String text) {
        if (text.indexOf('\\') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch != '\\') {
                out.append(ch);
                continue;
            }
            if (++i == text.length()) {
                return null;
            }
            switch (text.charAt(i)) {
                case '\\' -> out.append('\\');
                case 't' -> out.append('\t');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                default -> {
                    return null;
                }
            }
        }
        return out.toString();
    }
}
