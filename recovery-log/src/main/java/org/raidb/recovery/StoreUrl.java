package org.raidb.recovery;

import java.util.Locale;

/**
 * The URL the log connects to its store with. H2 closes an embedded database from a JVM shutdown
 * hook of its own unless the URL says {@code DB_CLOSE_ON_EXIT=FALSE}, and shutdown hooks run in no
 * set order: a controller stopping on SIGTERM would find its log closed under it before writing its
 * final checkpoint. An embedded H2 store is therefore opened with that setting and closes when the
 * log closes its last connection. A URL that sets {@code DB_CLOSE_ON_EXIT} itself is used as
 * written; an H2 server's database ({@code tcp:}, {@code ssl:}) belongs to the server's process;
 * other stores (PostgreSQL, MariaDB) have no such hook.
 */
final class StoreUrl {
    static final String KEEP_OPEN_AT_EXIT = "DB_CLOSE_ON_EXIT=FALSE";

    private StoreUrl() {}

    static String forConnecting(String jdbcUrl) {
        String url = jdbcUrl.toUpperCase(Locale.ROOT);
        boolean embeddedH2 =
                url.startsWith("JDBC:H2:") && !url.startsWith("JDBC:H2:TCP:") && !url.startsWith("JDBC:H2:SSL:");
        if (!embeddedH2 || setsCloseOnExit(url)) {
            return jdbcUrl;
        }
        return jdbcUrl + ";" + KEEP_OPEN_AT_EXIT;
    }

    private static boolean setsCloseOnExit(String upperCaseUrl) {
        String[] parts = upperCaseUrl.split(";", -1);
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].strip().startsWith("DB_CLOSE_ON_EXIT")) {
                return true;
            }
        }
        return false;
    }
}
