package org.raidb.tpcw.interactions;

import java.sql.SQLException;
import java.util.List;

/**
 * What an interaction needs from the database: literal SQL in, small results out. Interactions
 * build every statement with its values written in (no parameters), so that the trace holds
 * exactly what the database received.
 */
public interface SqlSession {

    /** Marks the start of an interaction, for the trace and per-interaction figures. */
    void interaction(Interaction interaction);

    /** A query; every row read, as column values. */
    List<Object[]> query(String sql) throws SQLException;

    /** An INSERT, UPDATE, DELETE or DDL; the update count. */
    int update(String sql) throws SQLException;

    /** Auto-commit off: the statements until {@link #commit()} are one transaction. */
    void begin() throws SQLException;

    void commit() throws SQLException;

    void rollback() throws SQLException;
}
