package org.raidb.driver;

import java.sql.SQLException;
import java.sql.Savepoint;
import org.raidb.driver.protocol.SqlStates;

/**
 * A savepoint of a RAIDb connection. As in pgjdbc, an unnamed savepoint has an id and travels as
 * {@code JDBC_SAVEPOINT_<id>}; a named one has only its name, sent as given (the backend's driver
 * quotes it).
 */
public final class RaidbSavepoint implements Savepoint {
    private static final String UNNAMED_PREFIX = "JDBC_SAVEPOINT_";

    private final int id;
    private final String name;
    private final RaidbConnection connection;
    private boolean valid = true;

    private RaidbSavepoint(int id, String name, RaidbConnection connection) {
        this.id = id;
        this.name = name;
        this.connection = connection;
    }

    static RaidbSavepoint unnamed(int id, RaidbConnection connection) {
        return new RaidbSavepoint(id, null, connection);
    }

    static RaidbSavepoint named(String name, RaidbConnection connection) {
        return new RaidbSavepoint(0, name, connection);
    }

    /** The name sent to the controller in TRANSACTION set/rollback/release savepoint. */
    String wireName() {
        return name != null ? name : UNNAMED_PREFIX + id;
    }

    boolean belongsTo(RaidbConnection c) {
        return connection == c;
    }

    boolean isValid() {
        return valid;
    }

    void invalidate() {
        valid = false;
    }

    @Override
    public int getSavepointId() throws SQLException {
        if (!valid) {
            throw invalid();
        }
        if (name != null) {
            throw DriverErrors.of("Cannot retrieve the id of a named savepoint.", SqlStates.WRONG_OBJECT_TYPE);
        }
        return id;
    }

    @Override
    public String getSavepointName() throws SQLException {
        if (!valid) {
            throw invalid();
        }
        if (name == null) {
            throw DriverErrors.of("Cannot retrieve the name of an unnamed savepoint.", SqlStates.WRONG_OBJECT_TYPE);
        }
        return name;
    }

    static SQLException invalid() {
        return DriverErrors.of("Cannot reference a savepoint after it has been released.", SqlStates.INVALID_SAVEPOINT);
    }

    @Override
    public String toString() {
        return wireName();
    }
}
