package org.raidb.controller.session;

import java.net.InetAddress;
import java.sql.SQLException;
import org.raidb.controller.auth.LoginThrottle;
import org.raidb.controller.tree.ControllerChain;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.driver.protocol.HelloFrame;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;

/**
 * The HELLO frame checked: magic and version ({@link HelloFrame}), then the virtual database and the password,
 * under the login throttle. Nothing here opens a backend connection.
 *
 * @param vdb the virtual database logged into
 * @param user the virtual user
 * @param applicationName what the client calls itself (client property {@code ApplicationName}), or null
 * @param clientSessionId the driver's id of its logical connection, or null (a driver that predates failover)
 */
record Login(VirtualDatabase vdb, String user, String applicationName, String clientSessionId) {

    static Login check(PayloadReader hello, SessionRegistry registry, InetAddress source)
            throws ProtocolException, SQLException {
        if (hello.type() != Protocol.HELLO) {
            throw new ProtocolException("expected a HELLO frame first, got type " + (hello.type() & 0xff));
        }
        HelloFrame frame = HelloFrame.read(hello);
        String vdbName = frame.virtualDatabase();
        String user = frame.user();
        String password = frame.password();
        String applicationName = frame.clientProperties().get(Protocol.APPLICATION_NAME);
        LoginThrottle throttle = registry.loginThrottle();
        String throttled = vdbName + "/" + user; // the same name on two virtual databases is two users
        throttle.checkClient(source, throttled);
        VirtualDatabase vdb = registry.virtualDatabase(vdbName);
        try {
            vdb.authentication().authenticateVirtualUser(user, password);
        } catch (SQLException wrongPassword) {
            throttle.failed(source, throttled);
            throw wrongPassword;
        }
        throttle.succeeded(source, throttled);
        // A controller using this virtual database as its backend: refused if this one is among its ancestors.
        vdb.controllerChain().admit(frame.clientProperties().get(ControllerChain.PROPERTY));
        return new Login(vdb, user, applicationName, frame.clientSessionId());
    }
}
