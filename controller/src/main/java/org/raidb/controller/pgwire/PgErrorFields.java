package org.raidb.controller.pgwire;

import java.util.LinkedHashMap;
import java.util.Map;
import org.postgresql.util.ServerErrorMessage;

/**
 * The fields of a backend's ErrorResponse, as pgjdbc kept them, for the ErrorResponse to the client: what a
 * client shows as DETAIL and HINT, the error's position, and the names of the schema, table, column, type and
 * constraint involved (what pgjdbc's {@code ServerErrorMessage} and psql's {@code \errverbose} read).
 */
final class PgErrorFields {
    private PgErrorFields() {}

    static Map<Character, String> of(ServerErrorMessage m) {
        Map<Character, String> f = new LinkedHashMap<>();
        String severity = m.getSeverity() == null ? "ERROR" : m.getSeverity();
        f.put('S', severity);
        f.put('V', severity);
        f.put('C', m.getSQLState());
        f.put('M', m.getMessage());
        f.put('D', m.getDetail());
        f.put('H', m.getHint());
        f.put('P', m.getPosition() > 0 ? Integer.toString(m.getPosition()) : null);
        f.put('p', m.getInternalPosition() > 0 ? Integer.toString(m.getInternalPosition()) : null);
        f.put('q', m.getInternalQuery());
        f.put('W', m.getWhere());
        f.put('s', m.getSchema());
        f.put('t', m.getTable());
        f.put('c', m.getColumn());
        f.put('d', m.getDatatype());
        f.put('n', m.getConstraint());
        f.put('F', m.getFile());
        f.put('L', m.getLine() > 0 ? Integer.toString(m.getLine()) : null);
        f.put('R', m.getRoutine());
        return f;
    }
}
