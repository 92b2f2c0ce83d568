package org.raidb.driver;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.raidb.driver.protocol.SqlStates;

/**
 * Opens a channel to the first controller that answers the handshake, trying them in the order of
 * the connection's {@link ControllerPolicy}. Each attempt gets the whole connect timeout.
 */
final class ControllerConnector {
    private ControllerConnector() {}

    static ControllerChannel connect(ConnectionSettings settings) throws SQLException {
        List<String> failures = new ArrayList<>();
        for (HostAndPort controller : settings.policy().order(settings.controllers())) {
            try {
                return ControllerChannel.open(controller, settings);
            } catch (IOException e) {
                failures.add(controller + ": " + describe(e, settings));
            }
            // An SQLException is the controller's own answer (bad password, unknown virtual database):
            // it propagates, since the other controllers serve the same virtual database.
        }
        SQLException e = SqlStates.exception(
                "Could not connect to virtual database '" + settings.virtualDatabase() + "': no controller answered ("
                        + String.join("; ", failures) + ")",
                SqlStates.CONNECTION_UNABLE,
                0);
        throw e;
    }

    private static String describe(IOException e, ConnectionSettings settings) {
        if (e instanceof SocketTimeoutException) {
            return settings.connectTimeoutSeconds() > 0 || settings.socketTimeoutSeconds() == 0
                    ? "no answer within connectTimeout=" + settings.connectTimeoutSeconds() + "s"
                    : "no answer within socketTimeout=" + settings.socketTimeoutSeconds() + "s";
        }
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : " " + message);
    }
}
