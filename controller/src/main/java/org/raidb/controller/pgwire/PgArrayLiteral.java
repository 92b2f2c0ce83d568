package org.raidb.controller.pgwire;

import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import org.raidb.driver.protocol.SqlArray;

/**
 * An array as the backends write it in the text format ({@code {1,2,NULL}}, {@code {{"a b",c},{d,e}}},
 * {@code [0:1]={x,y}}), read into a {@link SqlArray} of Java values: what the binary format of an array column
 * is written from. Array columns reach the front end as that text, since the request path carries them as
 * the backend's own text; only a client asking for them in binary needs them taken apart.
 */
final class PgArrayLiteral {
    /** PostgreSQL's ISO output of a time of day: the fraction only as long as needed. */
    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss")
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .optionalEnd()
            .toFormatter();

    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral(' ')
            .append(TIME)
            .toFormatter();

    /** PostgreSQL's offsets: +02, +05:30, -03:30:15. */
    private static final DateTimeFormatter OFFSET =
            new DateTimeFormatterBuilder().appendOffset("+HH:mm:ss", "+00").toFormatter();

    private final String text;
    private final PgType elementType;
    private int pos;

    private PgArrayLiteral(String text, PgType elementType) {
        this.text = text;
        this.elementType = elementType;
    }

    /** The array a backend's text stands for, its elements as the Java values of {@code elementType}. */
    static SqlArray parse(String text, PgType elementType) throws SQLException {
        PgArrayLiteral p = new PgArrayLiteral(text, elementType);
        try {
            if (text.startsWith("[")) {
                p.pos = text.indexOf('=') + 1; // the bounds: the binary form here always starts at 1
            }
            SqlArray a = p.level();
            if (p.pos != text.length()) {
                throw p.malformed();
            }
            return a;
        } catch (StringIndexOutOfBoundsException | DateTimeParseException e) {
            throw p.malformed();
        }
    }

    private SqlArray level() throws SQLException {
        expect('{');
        List<Object> elements = new ArrayList<>();
        if (text.charAt(pos) == '}') {
            pos++;
            return new SqlArray(elementType.typeName(), elements);
        }
        while (true) {
            char c = text.charAt(pos);
            if (c == '{') {
                elements.add(level());
            } else if (c == '"') {
                elements.add(value(quoted()));
            } else {
                String raw = unquoted();
                elements.add(raw.equalsIgnoreCase("NULL") ? null : value(raw));
            }
            char next = text.charAt(pos++);
            if (next == '}') {
                return new SqlArray(elementType.typeName(), elements);
            } else if (next != ',') {
                throw malformed();
            }
        }
    }

    private String quoted() {
        StringBuilder sb = new StringBuilder();
        pos++; // the opening quote
        for (char c = text.charAt(pos++); c != '"'; c = text.charAt(pos++)) {
            sb.append(c == '\\' ? text.charAt(pos++) : c);
        }
        return sb.toString();
    }

    private String unquoted() {
        int start = pos;
        while (text.charAt(pos) != ',' && text.charAt(pos) != '}') {
            pos++;
        }
        return text.substring(start, pos).trim();
    }

    private void expect(char c) throws SQLException {
        if (text.charAt(pos++) != c) {
            throw malformed();
        }
    }

    /** One element's text as the Java value its binary form is written from. */
    private Object value(String s) throws SQLException {
        boolean infinite = s.equals("infinity") || s.equals("-infinity");
        if (infinite && elementType == PgType.DATE) {
            return s.startsWith("-") ? LocalDate.MIN : LocalDate.MAX;
        } else if (infinite && elementType == PgType.TIMESTAMP) {
            return s.startsWith("-") ? LocalDateTime.MIN : LocalDateTime.MAX;
        } else if (infinite && elementType == PgType.TIMESTAMPTZ) {
            return s.startsWith("-") ? OffsetDateTime.MIN : OffsetDateTime.MAX;
        }
        return switch (elementType) {
            case DATE -> LocalDate.parse(s);
            case TIME -> LocalTime.parse(s, TIME);
            case TIMESTAMP -> LocalDateTime.parse(s, TIMESTAMP);
            case TIMESTAMPTZ -> OffsetDateTime.parse(s, withOffset(TIMESTAMP));
            case TIMETZ -> OffsetTime.parse(s, withOffset(TIME));
            default -> PgParameters.text(elementType, s);
        };
    }

    private static DateTimeFormatter withOffset(DateTimeFormatter local) {
        return new DateTimeFormatterBuilder().append(local).append(OFFSET).toFormatter();
    }

    private SQLException malformed() {
        return new SQLException(
                "an array of " + elementType.typeName() + " the backend wrote as \"" + abbreviated()
                        + "\" has no binary form here: ask for it as text",
                "0A000");
    }

    private String abbreviated() {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }
}
