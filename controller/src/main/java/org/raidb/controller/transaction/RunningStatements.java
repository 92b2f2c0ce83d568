package org.raidb.controller.transaction;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The backend statements a session is running right now, so that a client's cancel can reach all of them. */
public final class RunningStatements {
    private final Set<Statement> statements = ConcurrentHashMap.newKeySet();

    public void add(Statement st) {
        statements.add(st);
    }

    public void remove(Statement st) {
        statements.remove(st);
    }

    public void cancelAll() {
        for (Statement st : statements) {
            try {
                st.cancel();
            } catch (SQLException ignored) {
                // the statement finished or its backend died meanwhile: nothing left to cancel
            }
        }
    }
}
