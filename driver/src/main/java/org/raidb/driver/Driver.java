package org.raidb.driver;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;
import java.util.logging.Logger;
import org.raidb.driver.protocol.Protocol;

/**
 * The RAIDb JDBC driver, for URLs {@code jdbc:raidb://host[:port][,host[:port]...]/vdb[?key=value&...]}.
 *
 * <p>It registers itself with DriverManager when loaded, and through
 * {@code META-INF/services/java.sql.Driver}. Properties: see {@link DriverProperty}; values in the
 * URL's query win over the same keys in the {@code Properties} argument, as in pgjdbc. With several
 * controllers, they are tried in the order of {@code controllerPolicy} and the first to answer the
 * handshake serves the connection.
 */
public class Driver implements java.sql.Driver {
    private static final Logger LOGGER = Logger.getLogger("org.raidb.driver");

    static {
        try {
            DriverManager.registerDriver(new Driver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Null for a URL of another scheme, as JDBC requires, so that DriverManager tries the next driver. */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        ConnectionSettings settings = ConnectionSettings.parse(url, info);
        // Failover moves a connection to another controller: with one in the URL, a failure stays 08006.
        SessionMemory memory = settings.failover() && settings.controllers().size() > 1
                ? new SessionMemory(settings.clientProperties().get(Protocol.APPLICATION_NAME))
                : null;
        ControllerChannel channel = ControllerChannel.connect(settings, memory);
        return new RaidbConnection(channel, memory, settings, url);
    }

    @Override
    public boolean acceptsURL(String url) {
        return RaidbUrl.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        Properties merged = info == null ? new Properties() : info;
        if (acceptsURL(url)) {
            merged = ConnectionSettings.merge(RaidbUrl.parse(url), info);
        }
        DriverProperty[] properties = DriverProperty.values();
        DriverPropertyInfo[] infos = new DriverPropertyInfo[properties.length];
        for (int i = 0; i < properties.length; i++) {
            infos[i] = properties[i].toInfo(merged);
        }
        return infos;
    }

    @Override
    public int getMajorVersion() {
        return DriverInfo.MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return DriverInfo.MINOR_VERSION;
    }

    /** False, as pgjdbc answers: full SQL-92 Entry Level support depends on the backends. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() {
        return LOGGER;
    }
}
