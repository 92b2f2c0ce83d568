package org.raidb.controller.analysis;

import java.util.Set;

/**
 * One statement of a text that may hold several, as a backend splits it.
 *
 * @param start index of its first character in the text
 * @param end index just after its last character (its semicolon, if any, is left out)
 * @param toEnd it opened a body with semicolons of its own ({@code BEGIN ATOMIC}, a MariaDB {@code
 *     BEGIN … END}), so it runs to the end of the text, as the backend's driver sends it: it may hold
 *     further statements
 * @param calls the names written as calls in it (a name followed by an opening parenthesis, not a
 *     column list), lower-case and unqualified
 */
record TextPart(int start, int end, boolean toEnd, Set<String> calls) {

    String text(String sql) {
        return sql.substring(start, end);
    }
}
