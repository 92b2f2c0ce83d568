package org.raidb.controller.pgwire;

import java.util.List;
import org.raidb.controller.request.StatementResult;
import org.raidb.controller.result.Result;
import org.raidb.controller.result.Rows;
import org.raidb.controller.result.UpdateCount;

/**
 * A bound statement (Bind), run on its first Describe or Execute; its rows are sent across as many Executes as
 * the client's row limits take (PortalSuspended between them). Its parameters are in the order of the
 * statement's markers (null for a statement without any); its result formats are the Bind's (none: all text;
 * one: for all).
 */
final class PgPortal implements AutoCloseable {
    private final PgPrepared statement;
    private final List<Object> parameters;
    private final int[] resultFormats;
    private StatementResult result;
    private PgRows rows;
    private long count = -1;
    private boolean completed;

    PgPortal(PgPrepared statement, List<Object> parameters, int[] resultFormats) {
        this.statement = statement;
        this.parameters = parameters;
        this.resultFormats = resultFormats;
    }

    PgPrepared statement() {
        return statement;
    }

    List<Object> parameters() {
        return parameters;
    }

    int[] resultFormats() {
        return resultFormats;
    }

    boolean ran() {
        return result != null;
    }

    /**
     * Keeps what the statement produced: its first result set if it has one, else its last update count. A
     * portal holds one result; anything else is discarded (its cursors closed).
     */
    void ran(StatementResult r) {
        result = r;
        for (Result item : r.results()) {
            if (rows == null && item instanceof Rows set) {
                rows = new PgRows(set.source());
            } else if (item instanceof UpdateCount c) {
                count = c.count();
            } else if (item instanceof Rows other) {
                other.discard();
            }
        }
        if (r.generatedKeys() != null) {
            r.generatedKeys().close();
        }
    }

    /** The rows to send, or null when the statement returned none. */
    PgRows rows() {
        return rows;
    }

    /** The update count, -1 when there is none. */
    long count() {
        return count;
    }

    java.sql.SQLWarning warnings() {
        return result == null ? null : result.warnings();
    }

    boolean completed() {
        return completed;
    }

    void complete() {
        completed = true;
    }

    @Override
    public void close() {
        if (rows != null) {
            rows.close();
        }
    }
}
