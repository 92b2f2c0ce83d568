package org.raidb.controller.request;

import java.sql.Connection;
import java.sql.SQLException;

/** What a write does on one backend connection. */
@FunctionalInterface
public interface BackendWork {
    StatementResult run(Connection c) throws SQLException;
}
