package org.raidb.controller.pgwire;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * COPY's text and CSV formats, as PostgreSQL defines them: how one row's fields are written on a line, and
 * how a value is escaped (text) or quoted (CSV). Reading lines that a CSV quote spans is {@link
 * PgCopyDecoder}'s work; this is one row at a time.
 *
 * @param csv the CSV format, else text
 * @param delimiter between fields: tab (text) or comma (CSV) unless given
 * @param nullString what stands for NULL: {@code \N} (text) or an unquoted empty field (CSV) unless given
 * @param header a first line of column names (skipped in, written out)
 */
record PgCopyFormat(boolean csv, char delimiter, String nullString, boolean header, char quote, char escape) {

    static final String BAD_COPY_FILE_FORMAT = "22P04";

    /** The options of a COPY statement, checked as PostgreSQL checks them. */
    static final class Builder {
        private String format = "text";
        private String delimiter;
        private String nullString;
        private boolean header;
        private String quote;
        private String escape;

        void format(String f) {
            format = f;
        }

        void delimiter(String d) {
            delimiter = d;
        }

        void nullString(String n) {
            nullString = n;
        }

        void header(boolean h) {
            header = h;
        }

        void quote(String q) {
            quote = q;
        }

        void escape(String e) {
            escape = e;
        }

        void encoding(String e) throws SQLException {
            String name = e.toUpperCase(Locale.ROOT).replace("-", "").replace("_", "");
            if (!name.equals("UTF8")) {
                throw new SQLException(
                        "COPY ENCODING '" + e + "' is not supported through RAIDb: the front end speaks UTF8;"
                                + " convert the data, or leave ENCODING out",
                        "0A000");
            }
        }

        PgCopyFormat build() throws SQLException {
            boolean csv;
            switch (format) {
                case "text" -> csv = false;
                case "csv" -> csv = true;
                case "binary" ->
                    throw new SQLException(
                            "COPY in the binary format is not supported through RAIDb: use FORMAT text or csv",
                            "0A000");
                default -> throw new SQLException("COPY format \"" + format + "\" not recognized", "22023");
            }
            char d = one("COPY delimiter", delimiter, csv ? ',' : '\t');
            char q = one("COPY quote", quote, '"');
            char e = one("COPY escape", escape, q);
            if (!csv && (quote != null || escape != null)) {
                throw new SQLException("COPY quote and escape are available only in CSV mode", "0A000");
            }
            if (d == '\r' || d == '\n' || (!csv && d == '\\')) {
                throw new SQLException("COPY delimiter cannot be newline, carriage return or backslash", "22023");
            }
            if (csv && d == q) {
                throw new SQLException("COPY delimiter and quote must be different", "22023");
            }
            String n = nullString != null ? nullString : csv ? "" : "\\N";
            if (n.indexOf('\r') >= 0 || n.indexOf('\n') >= 0) {
                throw new SQLException("COPY null representation cannot use newline or carriage return", "22023");
            }
            return new PgCopyFormat(csv, d, n, header, q, e);
        }

        private static char one(String what, String given, char otherwise) throws SQLException {
            if (given == null) {
                return otherwise;
            }
            if (given.length() != 1) {
                throw new SQLException(what + " must be a single one-byte character", "22023");
            }
            return given.charAt(0);
        }
    }

    // ---- out: one row as a line

    /** A row as one line (with its newline) of this format; a null value is the null string. */
    String line(List<String> values) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(delimiter);
            }
            String v = values.get(i);
            if (v == null) {
                sb.append(nullString);
            } else if (csv) {
                quoted(sb, v);
            } else {
                escaped(sb, v);
            }
        }
        return sb.append('\n').toString();
    }

    private void escaped(StringBuilder sb, String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case 0x0b -> sb.append("\\v");
                default -> {
                    if (c == delimiter) {
                        sb.append('\\');
                    }
                    sb.append(c);
                }
            }
        }
    }

    /** Quoted where needed: a delimiter, quote, escape or line break inside, or text that reads as the null string. */
    private void quoted(StringBuilder sb, String v) {
        boolean needs = v.equals(nullString) || v.equals("\\.");
        for (int i = 0; i < v.length() && !needs; i++) {
            char c = v.charAt(i);
            needs = c == delimiter || c == quote || c == escape || c == '\n' || c == '\r';
        }
        if (!needs) {
            sb.append(v);
            return;
        }
        sb.append(quote);
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == quote || c == escape) {
                sb.append(escape);
            }
            sb.append(c);
        }
        sb.append(quote);
    }

    // ---- in: one line of the text format as fields

    /**
     * The fields of one text-format line (without its line break): split at unescaped delimiters, a field
     * that is exactly the null string (before de-escaping, as PostgreSQL compares) is null, backslash
     * sequences decoded.
     */
    List<String> textFields(String line) throws SQLException {
        List<String> fields = new java.util.ArrayList<>();
        StringBuilder value = new StringBuilder();
        int rawStart = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == delimiter) {
                fields.add(field(line.substring(rawStart, i), value));
                value.setLength(0);
                rawStart = i + 1;
            } else if (c == '\\' && i + 1 < line.length()) {
                i = unescape(line, i + 1, value);
            } else {
                value.append(c);
            }
        }
        fields.add(field(line.substring(rawStart), value));
        return fields;
    }

    private String field(String raw, StringBuilder value) {
        return raw.equals(nullString) ? null : value.toString();
    }

    /** Decodes the escape whose character is at {@code at}; returns the index of its last character. */
    private static int unescape(String line, int at, StringBuilder value) throws SQLException {
        char c = line.charAt(at);
        switch (c) {
            case 'b' -> value.append('\b');
            case 'f' -> value.append('\f');
            case 'n' -> value.append('\n');
            case 'r' -> value.append('\r');
            case 't' -> value.append('\t');
            case 'v' -> value.append((char) 0x0b);
            case 'x' -> {
                int end = at + 1;
                while (end < line.length() && end < at + 3 && Character.digit(line.charAt(end), 16) >= 0) {
                    end++;
                }
                if (end == at + 1) {
                    value.append('x');
                    return at;
                }
                return codePoint(Integer.parseInt(line.substring(at + 1, end), 16), value, end - 1);
            }
            default -> {
                if (c >= '0' && c <= '7') {
                    int end = at;
                    while (end < line.length() && end < at + 3 && line.charAt(end) >= '0' && line.charAt(end) <= '7') {
                        end++;
                    }
                    return codePoint(Integer.parseInt(line.substring(at, end), 8), value, end - 1);
                }
                value.append(c); // \\, an escaped delimiter, or any other character taken as itself
            }
        }
        return at;
    }

    private static int codePoint(int b, StringBuilder value, int last) throws SQLException {
        if (b == 0) {
            throw new SQLException("invalid byte sequence for encoding \"UTF8\": 0x00 in COPY data", "22021");
        }
        if (b > 0x7f) {
            // PostgreSQL puts such bytes together into characters of the server encoding; one byte alone is
            // no character here.
            throw new SQLException(
                    "COPY data escapes a byte above \\x7F: send the character itself in UTF-8", BAD_COPY_FILE_FORMAT);
        }
        value.append((char) b);
        return last;
    }
}
