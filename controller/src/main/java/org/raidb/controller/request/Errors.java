package org.raidb.controller.request;

import java.sql.SQLException;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.NotEnoughBackendsException;
import org.raidb.balancer.TablesNotColocatedException;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.driver.protocol.SqlStates;

/** The errors a client gets when routing finds no backend. */
final class Errors {
    /** PostgreSQL's insufficient_resources class. */
    private Errors() {}

    /**
     * Why routing found no backend, with the SQLState a client can act on: the table does not exist for
     * the virtual database right now (42P01), the statement needs tables that no backend holds together
     * (0A000: no distributed joins), or too few backends qualify for a create-table rule (53000).
     */
    static SQLException unavailable(BackendArray vdb, NoBackendAvailableException e, SQLException cause) {
        boolean anyEnabled = vdb.backends().stream().anyMatch(DatabaseBackend::isEnabled);
        if (!anyEnabled) {
            return noBackendLeft(vdb, cause);
        }
        if (e instanceof TablesNotColocatedException) {
            return new SQLException(e.getMessage(), SqlStates.FEATURE_NOT_SUPPORTED, e);
        }
        if (e instanceof NotEnoughBackendsException) {
            return new SQLException(e.getMessage(), SqlStates.INSUFFICIENT_RESOURCES, e);
        }
        // TableNotHeldException, and RAIDb-1's "none of the transaction's backends holds it"
        return new SQLException(e.getMessage(), SqlStates.UNDEFINED_TABLE, e);
    }

    static SQLException noBackendLeft(BackendArray vdb, SQLException cause) {
        return new SQLException(
                "virtual database " + vdb.name() + " has no enabled backend: it refuses requests until an "
                        + "administrator enables a backend",
                SqlStates.CONNECTION_FAILURE,
                cause);
    }
}
