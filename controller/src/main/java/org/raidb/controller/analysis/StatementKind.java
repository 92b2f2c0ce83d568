package org.raidb.controller.analysis;

import org.raidb.balancer.RequestKind;

/** What a SQL statement is, as the controller must treat it. */
public enum StatementKind {
    READ(RequestKind.READ),
    WRITE(RequestKind.WRITE),
    DDL(RequestKind.DDL),
    CALL(RequestKind.CALL),
    /** BEGIN, COMMIT, ROLLBACK, SAVEPOINT... sent as SQL text: the session handles them itself. */
    TRANSACTION_CONTROL(RequestKind.WRITE),
    /** SET / RESET: sent to every backend so that they stay alike. */
    SESSION_SETTING(RequestKind.WRITE);

    private final RequestKind requestKind;

    StatementKind(RequestKind requestKind) {
        this.requestKind = requestKind;
    }

    public RequestKind requestKind() {
        return requestKind;
    }

    public boolean isWrite() {
        return this != READ;
    }
}
