package org.raidb.driver;

import java.sql.DriverPropertyInfo;
import java.util.List;
import java.util.Properties;
import org.raidb.driver.protocol.Protocol;

/** The connection properties the driver understands, with their defaults, for both parsing and getPropertyInfo. */
public enum DriverProperty {
    USER("user", null, "Login of the virtual database user", true, null),
    PASSWORD("password", null, "Password of the virtual database user", false, null),
    CONTROLLER_POLICY(
            "controllerPolicy",
            "ordered",
            "Which controller of the URL's list to try first: ordered (the URL's order), random, or roundRobin (rotating start, JVM-wide)",
            false,
            List.of("ordered", "random", "roundRobin")),
    CONNECT_TIMEOUT(
            "connectTimeout",
            "10",
            "Seconds to wait for each controller to accept the connection and answer the handshake; 0 waits forever to connect, and socketTimeout then bounds the handshake",
            false,
            null),
    SOCKET_TIMEOUT(
            "socketTimeout",
            "0",
            "Seconds to wait for any answer of the controller before the connection is declared broken; 0 waits forever",
            false,
            null),
    MAX_FRAME_BYTES(
            "maxFrameBytes",
            String.valueOf(Protocol.DEFAULT_MAX_FRAME_BYTES),
            "Largest protocol frame accepted from the controller, in bytes",
            false,
            null),
    FAILOVER(
            "failover",
            "true",
            "When the controller fails, move the connection to another controller of the URL within connectTimeout, restore the session, replay the open transaction and send the request again (true); false: the connection fails with 08006, as with one controller",
            false,
            List.of("true", "false")),
    FETCH_SIZE(
            "fetchSize",
            "0",
            "Default number of rows fetched per round trip; 0 lets the controller choose ("
                    + Protocol.DEFAULT_FETCH_SIZE + ")",
            false,
            null),
    SSL(
            "ssl",
            "false",
            "Connect over TLS; true without sslmode means sslmode=verify-full, as in pgjdbc",
            false,
            List.of("true", "false")),
    SSL_MODE(
            "sslmode",
            null,
            "disable (plain TCP), require (TLS, the certificate not checked), verify-ca (TLS, the certificate must chain to sslrootcert or the JVM's trust store) or verify-full (verify-ca, and the controller's host name must match the certificate)",
            false,
            List.of("disable", "require", "verify-ca", "verify-full")),
    SSL_ROOT_CERT(
            "sslrootcert",
            null,
            "File holding the certificate(s), PEM or DER, that a controller's certificate must chain to; default: the JVM's trust store",
            false,
            null);

    private final String key;
    private final String defaultValue;
    private final String description;
    private final boolean required;
    // Error Prone only trusts Guava's immutable types; List.of is unmodifiable and the field is never exposed.
    @SuppressWarnings("ImmutableEnumChecker")
    private final List<String> choices;

    DriverProperty(String key, String defaultValue, String description, boolean required, List<String> choices) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.description = description;
        this.required = required;
        this.choices = choices;
    }

    public String key() {
        return key;
    }

    public String defaultValue() {
        return defaultValue;
    }

    /** The value in {@code props}, or the default. */
    public String get(Properties props) {
        return props.getProperty(key, defaultValue);
    }

    public DriverPropertyInfo toInfo(Properties props) {
        DriverPropertyInfo info = new DriverPropertyInfo(key, get(props));
        info.description = description;
        info.required = required;
        info.choices = choices == null ? null : choices.toArray(new String[0]);
        return info;
    }

    public static boolean isDriverProperty(String key) {
        for (DriverProperty p : values()) {
            if (p.key.equals(key)) {
                return true;
            }
        }
        return false;
    }
}
