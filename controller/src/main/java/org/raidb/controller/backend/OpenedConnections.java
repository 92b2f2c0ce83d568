package org.raidb.controller.backend;

import com.zaxxer.hikari.util.DriverDataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Iterator;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Where a backend's pools get their connections: HikariCP's own driver data source, remembering
 * each connection it opens. HikariCP can only abort the connections in use by closing the pool, and
 * its close first waits for connection attempts in progress, which against a hung server take their
 * whole login timeout; so a hung backend's connections are aborted here instead, at once, and
 * every thread blocked on one of them gets its error.
 */
final class OpenedConnections implements DataSource {
    private final DataSource driver;
    private final Set<Connection> opened = ConcurrentHashMap.newKeySet();

    OpenedConnections(String url, Map<String, String> driverProperties, String user, String password) {
        Properties properties = new Properties();
        properties.putAll(driverProperties);
        this.driver = new DriverDataSource(url, null, properties, user, password);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return remember(driver.getConnection());
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return remember(driver.getConnection(user, password));
    }

    private Connection remember(Connection c) throws SQLException {
        // A pool replaces few connections (fixed size): forgetting the closed ones here keeps the set that small.
        for (Iterator<Connection> it = opened.iterator(); it.hasNext(); ) {
            if (it.next().isClosed()) {
                it.remove();
            }
        }
        opened.add(c);
        return c;
    }

    /** Aborts every connection opened so far; HikariCP sees them broken and evicts them. */
    void abortAll() {
        for (Iterator<Connection> it = opened.iterator(); it.hasNext(); ) {
            ConnectionAbort.abort(it.next());
            it.remove(); // not clear(): one the pool opens meanwhile is aborted next time, not forgotten
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return driver.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        driver.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        driver.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return driver.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return driver.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return driver.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return driver.isWrapperFor(type);
    }
}
