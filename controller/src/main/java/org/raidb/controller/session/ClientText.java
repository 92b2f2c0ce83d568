package org.raidb.controller.session;

import java.sql.SQLException;
import java.util.List;
import org.raidb.driver.protocol.SqlStates;

/**
 * Checks on client text that becomes SQL on the backends: statements, generated-key column names,
 * metadata arguments. A NUL character ends a string in the backends' own protocols, so pgjdbc sends a
 * message shorter than it announced and PostgreSQL drops the connection: every backend in turn would
 * look failed and be disabled. Such text is refused here, before any backend sees it. (A NUL inside a
 * bound parameter value travels length-prefixed and PostgreSQL itself refuses it with 22021.)
 */
final class ClientText {
    private ClientText() {}

    /** A statement's text: present, not blank, no NUL. */
    static String statement(String sql) throws SQLException {
        if (sql == null || sql.isBlank()) {
            throw new SQLException("empty SQL statement: send a statement to run", SqlStates.SYNTAX_ERROR);
        }
        return withoutNul(sql, "the SQL statement");
    }

    /** Names or texts that must each be present and free of NUL; {@code what} names them in the message. */
    static List<String> all(List<String> texts, String what) throws SQLException {
        if (texts == null) {
            return null;
        }
        for (int i = 0; i < texts.size(); i++) {
            String t = texts.get(i);
            if (t == null) {
                throw new SQLException(
                        "entry " + (i + 1) + " of " + what + " is null: leave it out",
                        SqlStates.NULL_VALUE_NOT_ALLOWED);
            }
            withoutNul(t, "entry " + (i + 1) + " of " + what);
        }
        return texts;
    }

    /** Column names (generated keys): each present, not blank, no NUL; pgjdbc writes them into a RETURNING clause. */
    static List<String> columnNames(List<String> names, String what) throws SQLException {
        all(names, what);
        for (int i = 0; names != null && i < names.size(); i++) {
            if (names.get(i).isBlank()) {
                throw new SQLException(
                        "entry " + (i + 1) + " of " + what + " is empty: name a column", SqlStates.INVALID_NAME);
            }
        }
        return names;
    }

    /** {@code text} (which may be null) unless it holds a NUL character. */
    static String withoutNul(String text, String what) throws SQLException {
        if (text != null && text.indexOf('\0') >= 0) {
            throw new SQLException(
                    what + " contains a NUL character (U+0000) at position " + (text.indexOf('\0') + 1)
                            + ", which no backend accepts in SQL text: remove it (binary data belongs in a bytea parameter)",
                    SqlStates.CHARACTER_NOT_IN_REPERTOIRE);
        }
        return text;
    }
}
