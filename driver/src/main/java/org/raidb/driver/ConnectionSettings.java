package org.raidb.driver;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.raidb.driver.protocol.SqlStates;

/**
 * Everything a connection attempt needs: the URL's controllers and virtual database, and the
 * connection properties with their types checked.
 *
 * <p>Properties come from two places. As in pgjdbc, the {@code Properties} given to
 * {@code DriverManager.getConnection} are the defaults and the URL's query parameters are laid
 * over them, so a value written in the URL wins over the same key in {@code Properties}.
 */
public record ConnectionSettings(
        RaidbUrl url,
        Properties properties,
        ControllerPolicy policy,
        int connectTimeoutSeconds,
        int socketTimeoutSeconds,
        int maxFrameBytes,
        int fetchSize,
        boolean failover,
        TlsMode tlsMode) {

    public static ConnectionSettings parse(String url, Properties info) throws SQLException {
        RaidbUrl parsed = RaidbUrl.parse(url);
        Properties merged = merge(parsed, info);
        String policyText = DriverProperty.CONTROLLER_POLICY.get(merged);
        ControllerPolicy policy = ControllerPolicy.fromProperty(policyText);
        if (policy == null) {
            throw badProperty(DriverProperty.CONTROLLER_POLICY, policyText, "ordered, random or roundRobin");
        }
        return new ConnectionSettings(
                parsed,
                merged,
                policy,
                nonNegativeInt(merged, DriverProperty.CONNECT_TIMEOUT),
                nonNegativeInt(merged, DriverProperty.SOCKET_TIMEOUT),
                positiveInt(merged, DriverProperty.MAX_FRAME_BYTES),
                nonNegativeInt(merged, DriverProperty.FETCH_SIZE),
                booleanValue(merged, DriverProperty.FAILOVER),
                tlsMode(merged));
    }

    /** sslmode when given; else verify-full when ssl=true (pgjdbc's rule), else plain TCP. */
    private static TlsMode tlsMode(Properties props) throws SQLException {
        String mode = DriverProperty.SSL_MODE.get(props);
        if (mode != null) {
            TlsMode m = TlsMode.fromProperty(mode);
            if (m == null) {
                throw badProperty(DriverProperty.SSL_MODE, mode, "disable, require, verify-ca or verify-full");
            }
            return m;
        }
        return booleanValue(props, DriverProperty.SSL) ? TlsMode.VERIFY_FULL : TlsMode.DISABLE;
    }

    /** The sslrootcert file, or null for the JVM's trust store. */
    public String sslRootCert() {
        return DriverProperty.SSL_ROOT_CERT.get(properties);
    }

    /** The URL's parameters over the caller's Properties (including their own defaults). */
    static Properties merge(RaidbUrl url, Properties info) {
        Properties merged = new Properties();
        if (info != null) {
            for (String key : info.stringPropertyNames()) {
                merged.setProperty(key, info.getProperty(key));
            }
        }
        url.parameters().forEach(merged::setProperty);
        return merged;
    }

    public List<HostAndPort> controllers() {
        return url.controllers();
    }

    public String virtualDatabase() {
        return url.virtualDatabase();
    }

    public String user() {
        return DriverProperty.USER.get(properties);
    }

    public String password() {
        return DriverProperty.PASSWORD.get(properties);
    }

    /** Properties the driver does not interpret (applicationName, ...), passed to the controller in HELLO. */
    public Map<String, String> clientProperties() {
        Map<String, String> map = new LinkedHashMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (!DriverProperty.isDriverProperty(key)) {
                map.put(key, properties.getProperty(key));
            }
        }
        return map;
    }

    private static int nonNegativeInt(Properties props, DriverProperty p) throws SQLException {
        int v = intValue(props, p);
        if (v < 0) {
            throw badProperty(p, String.valueOf(v), "a number >= 0");
        }
        return v;
    }

    private static int positiveInt(Properties props, DriverProperty p) throws SQLException {
        int v = intValue(props, p);
        if (v <= 0) {
            throw badProperty(p, String.valueOf(v), "a number > 0");
        }
        return v;
    }

    private static boolean booleanValue(Properties props, DriverProperty p) throws SQLException {
        String text = p.get(props).trim();
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        if (text.equalsIgnoreCase("false")) {
            return false;
        }
        throw badProperty(p, text, "true or false");
    }

    private static int intValue(Properties props, DriverProperty p) throws SQLException {
        String text = p.get(props);
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw badProperty(p, text, "an integer");
        }
    }

    private static SQLException badProperty(DriverProperty p, String value, String expected) {
        return SqlStates.exception(
                "Invalid value '" + value + "' for connection property " + p.key() + ": expected " + expected,
                SqlStates.CONNECTION_UNABLE,
                0);
    }
}
