package org.raidb.driver;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.raidb.driver.protocol.SqlStates;

/**
 * Opens a link to the first controller that answers the handshake, trying them in the order of the
 * connection's {@link ControllerPolicy}. At connect time each attempt gets the whole connect timeout; when a
 * connection fails over, the controllers that failed are tried last and all attempts together get the
 * connect timeout.
 */
final class ControllerConnector {
    private ControllerConnector() {}

    /** The first link of a connection. */
    static ControllerLink connect(ConnectionSettings settings, String clientSessionId) throws SQLException {
        List<String> failures = new ArrayList<>();
        int timeoutMillis = connectTimeoutMillis(settings);
        for (HostAndPort controller : settings.policy().order(settings.controllers())) {
            try {
                return ControllerLink.open(controller, settings, clientSessionId, timeoutMillis);
            } catch (IOException e) {
                failures.add(controller + ": " + describe(e, settings));
            }
            // An SQLException is the controller's own answer (bad password, unknown virtual database):
            // it propagates, since the other controllers serve the same virtual database.
        }
        throw SqlStates.exception(
                "Could not connect to virtual database '" + settings.virtualDatabase() + "': no controller answered ("
                        + String.join("; ", failures) + ")",
                SqlStates.CONNECTION_UNABLE,
                0);
    }

    /**
     * A link to another controller for a connection whose controller failed: those in {@code tried} are not
     * tried again, except {@code failedFirst} (the controller that failed first, which may have been restarted),
     * tried once after all others; every attempt must end before {@code deadlineNanos} and is added to {@code
     * tried}, and each failure to {@code failures}. Here an ERROR answer (the controller refuses the login) is one more failure: the next
     * controller may take the session. None answering is 08001 naming each address tried and why.
     *
     * @param deadlineNanos {@link System#nanoTime()} by which to give up; attempts without a connect timeout
     *     are bounded by nothing but the socket timeout
     */
    static ControllerLink reconnect(
            ConnectionSettings settings,
            String clientSessionId,
            HostAndPort failedFirst,
            Set<HostAndPort> tried,
            List<String> failures,
            long deadlineNanos)
            throws SQLException {
        List<HostAndPort> order = new ArrayList<>();
        for (HostAndPort c : settings.policy().order(settings.controllers())) {
            if (!tried.contains(c) && !c.equals(failedFirst)) {
                order.add(c);
            }
        }
        if (!tried.contains(failedFirst)) {
            order.add(failedFirst);
        }
        boolean bounded = settings.connectTimeoutSeconds() > 0;
        for (HostAndPort controller : order) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            if (bounded && left <= 0) {
                failures.add(controller + ": not tried, connectTimeout=" + settings.connectTimeoutSeconds()
                        + "s had passed");
                continue;
            }
            tried.add(controller);
            try {
                return ControllerLink.open(
                        controller, settings, clientSessionId, bounded ? (int) Math.max(1, left) : 0);
            } catch (IOException e) {
                failures.add(controller + ": " + describe(e, settings));
            } catch (SQLException e) {
                failures.add(controller + ": refused the session (" + e.getSQLState() + " " + e.getMessage() + ")");
            }
        }
        throw SqlStates.exception(
                "The connection to virtual database '" + settings.virtualDatabase()
                        + "' is lost: its controller failed and no other controller took it over ("
                        + String.join("; ", failures)
                        + "); the connection is closed: open a new one when a controller is back",
                SqlStates.CONNECTION_UNABLE,
                0);
    }

    static int connectTimeoutMillis(ConnectionSettings settings) {
        return (int) Math.min(Integer.MAX_VALUE, TimeUnit.SECONDS.toMillis(settings.connectTimeoutSeconds()));
    }

    static String describe(IOException e, ConnectionSettings settings) {
        if (e instanceof SocketTimeoutException) {
            return settings.connectTimeoutSeconds() > 0 || settings.socketTimeoutSeconds() == 0
                    ? "no answer within connectTimeout=" + settings.connectTimeoutSeconds() + "s (timed out)"
                    : "no answer within socketTimeout=" + settings.socketTimeoutSeconds() + "s (timed out)";
        }
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : " " + message);
    }
}
