package org.raidb.driver;

import java.util.Locale;

/** How a connection uses TLS: pgjdbc's {@code sslmode} values that make sense for a controller. */
public enum TlsMode {
    /** Plain TCP. */
    DISABLE,
    /** TLS; any certificate is accepted: encrypted, but open to a man in the middle. */
    REQUIRE,
    /** TLS; the certificate must chain to a trusted one. */
    VERIFY_CA,
    /** TLS; the certificate must chain to a trusted one and name the host the URL gives. */
    VERIFY_FULL;

    /** The mode named by an {@code sslmode} value, or null when it names none. */
    static TlsMode fromProperty(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "disable" -> DISABLE;
            case "require" -> REQUIRE;
            case "verify-ca" -> VERIFY_CA;
            case "verify-full" -> VERIFY_FULL;
            default -> null;
        };
    }
}
