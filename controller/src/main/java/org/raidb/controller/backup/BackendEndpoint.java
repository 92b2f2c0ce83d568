package org.raidb.controller.backup;

import java.util.Objects;
import java.util.Properties;
import org.raidb.controller.jdbcurl.DriverFamily;

/**
 * Where a backuper reads or writes a database: the backend's JDBC URL and credentials. The password
 * never appears in {@link #toString()}, so an endpoint may be logged or put in an error message.
 */
public record BackendEndpoint(String jdbcUrl, String user, String password) {

    public BackendEndpoint {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        user = user == null ? "" : user;
        password = password == null ? "" : password;
    }

    /**
     * Connection properties for {@link java.sql.DriverManager}: user and password, and the driver's safe defaults
     * ({@link DriverFamily#safeDefaults()}), as the backend's own connections have.
     */
    public Properties credentials() {
        Properties properties = new Properties();
        DriverFamily.of(jdbcUrl).ifPresent(family -> properties.putAll(family.safeDefaults()));
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return properties;
    }

    @Override
    public String toString() {
        return user.isEmpty() ? jdbcUrl : user + "@" + jdbcUrl;
    }
}
