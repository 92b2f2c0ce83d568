package org.raidb.driver;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.raidb.driver.protocol.SqlArray;
import org.raidb.driver.protocol.SqlStates;

/**
 * PostgreSQL's text form of an array, {@code {1,NULL,"a b",{2,3}}}: read into an {@link SqlArray}
 * (what the server sends for an array column), written from one (what Array.toString() shows).
 * An optional dimension decoration ({@code [0:2]=}) is skipped: pgjdbc ignores lower bounds too.
 */
final class ArrayLiteral {
    private final String text;
    private final String elementType;
    private int pos;

    private ArrayLiteral(String text, String elementType) {
        this.text = text;
        this.elementType = elementType;
    }

    static SqlArray parse(String text, String elementType) throws SQLException {
        ArrayLiteral p = new ArrayLiteral(text, elementType);
        int equals = text.startsWith("[") ? text.indexOf('=') : -1;
        p.pos = equals < 0 ? 0 : equals + 1;
        p.skipSpaces();
        if (p.pos >= text.length() || text.charAt(p.pos) != '{') {
            throw malformed(text);
        }
        return p.array();
    }

    /** The array whose '{' is at pos; leaves pos after its '}'. */
    private SqlArray array() throws SQLException {
        pos++; // '{'
        List<Object> elements = new ArrayList<>();
        skipSpaces();
        if (peek() == '}') {
            pos++;
            return new SqlArray(elementType, List.of());
        }
        while (true) {
            skipSpaces();
            char c = peek();
            if (c == '{') {
                elements.add(array());
            } else if (c == '"') {
                elements.add(PgTypes.parseElement(elementType, quoted()));
            } else {
                String token = unquoted();
                elements.add(token.equalsIgnoreCase("NULL") ? null : PgTypes.parseElement(elementType, token));
            }
            skipSpaces();
            char next = peek();
            pos++;
            if (next == '}') {
                return new SqlArray(elementType, Collections.unmodifiableList(elements));
            }
            if (next != ',') {
                throw malformed(text);
            }
        }
    }

    private String quoted() throws SQLException {
        StringBuilder sb = new StringBuilder();
        pos++; // opening quote
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '\\' && pos < text.length()) {
                sb.append(text.charAt(pos++));
            } else if (c == '"') {
                return sb.toString();
            } else {
                sb.append(c);
            }
        }
        throw malformed(text);
    }

    private String unquoted() throws SQLException {
        int start = pos;
        while (pos < text.length() && text.charAt(pos) != ',' && text.charAt(pos) != '}') {
            pos++;
        }
        if (pos >= text.length()) {
            throw malformed(text);
        }
        return text.substring(start, pos).trim();
    }

    private char peek() throws SQLException {
        if (pos >= text.length()) {
            throw malformed(text);
        }
        return text.charAt(pos);
    }

    private void skipSpaces() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private static SQLException malformed(String text) {
        return DriverErrors.badValue("array", text, SqlStates.INVALID_TEXT_REPRESENTATION);
    }

    /** The text form, elements quoted unless they are numbers or booleans, as pgjdbc's createArrayOf writes them. */
    static String format(SqlArray array) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < array.elements().size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            Object e = array.elements().get(i);
            if (e == null) {
                sb.append("NULL");
            } else if (e instanceof SqlArray inner) {
                sb.append(format(inner));
            } else if (e instanceof Boolean b) {
                sb.append(b ? 't' : 'f');
            } else if (e instanceof Number && !(e instanceof java.math.BigDecimal)) {
                sb.append(e);
            } else {
                String s = ValueConversions.toText(e);
                sb.append('"')
                        .append(s.replace("\\", "\\\\").replace("\"", "\\\""))
                        .append('"');
            }
        }
        return sb.append('}').toString();
    }
}
