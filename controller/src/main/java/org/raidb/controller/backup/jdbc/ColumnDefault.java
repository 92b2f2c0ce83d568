package org.raidb.controller.backup.jdbc;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A column default that is a plain literal, the only kind that means the same in every product.
 * Expressions ({@code now()}, {@code nextval('s')}, {@code uuid()}) are product-specific and are
 * not copied; the schema reader logs each one it leaves out.
 */
public record ColumnDefault(Kind kind, String value) {

    /** What the literal is. */
    public enum Kind {
        NUMBER,
        STRING,
        BOOLEAN
    }

    private static final Pattern NUMBER = Pattern.compile("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");
    // PostgreSQL reports defaults as typed expressions: 'abc'::text, '-1'::integer, 'x'::character varying
    private static final Pattern TRAILING_CAST =
            Pattern.compile("::[a-zA-Z][a-zA-Z0-9_ ]*(\\(\\d+(,\\d+)?\\))?(\\[\\])?$");

    /**
     * The literal in a {@code COLUMN_DEF} as {@link java.sql.DatabaseMetaData#getColumns} reports it,
     * or empty when there is none or it is an expression.
     */
    public static Optional<ColumnDefault> parse(String columnDef) {
        if (columnDef == null) {
            return Optional.empty();
        }
        String text = columnDef.strip();
        if (text.startsWith("'")) {
            int end = closingQuote(text);
            if (end < 0) {
                return Optional.empty();
            }
            String rest = text.substring(end + 1);
            if (!rest.isEmpty() && !TRAILING_CAST.matcher(rest).matches()) {
                return Optional.empty();
            }
            return Optional.of(
                    new ColumnDefault(Kind.STRING, text.substring(1, end).replace("''", "'")));
        }
        String bare = TRAILING_CAST.matcher(text).replaceFirst("");
        if (NUMBER.matcher(bare).matches()) {
            return Optional.of(new ColumnDefault(Kind.NUMBER, bare));
        }
        String lower = bare.toLowerCase(Locale.ROOT);
        if (lower.equals("true") || lower.equals("false")) {
            return Optional.of(new ColumnDefault(Kind.BOOLEAN, lower));
        }
        return Optional.empty(); // NULL (no default) or an expression
    }

    /** Whether {@code columnDef} says something that {@link #parse} leaves out (not counting NULL). */
    public static boolean isExpression(String columnDef) {
        if (columnDef == null || parse(columnDef).isPresent()) {
            return false;
        }
        String bare = TRAILING_CAST.matcher(columnDef.strip()).replaceFirst("");
        return !bare.equalsIgnoreCase("null");
    }

    /** For a BOOLEAN column: MariaDB reports {@code 1} and {@code 0}, PostgreSQL {@code true}. */
    public boolean isTrue() {
        return value.equals("true") || value.equals("t") || (kind == Kind.NUMBER && !value.matches("[-+]?0*(\\.0*)?"));
    }

    private static int closingQuote(String text) {
        for (int i = 1; i < text.length(); i++) {
            if (text.charAt(i) == '\'') {
                if (i + 1 < text.length() && text.charAt(i + 1) == '\'') {
                    i++; // doubled quote inside the string
                } else {
                    return i;
                }
            }
        }
        return -1;
    }
}
