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

    /**
     * The file of an embedded H2 file store ({@code jdbc:h2:file:/x/y} or {@code jdbc:h2:/x/y}: {@code
     * /x/y.mv.db}); null for in-memory, server and other stores.
     */
    static java.nio.file.Path h2File(String jdbcUrl) {
        String upper = jdbcUrl.toUpperCase(Locale.ROOT);
        if (!upper.startsWith("JDBC:H2:")
                || upper.startsWith("JDBC:H2:MEM:")
                || upper.startsWith("JDBC:H2:TCP:")
                || upper.startsWith("JDBC:H2:SSL:")) {
            return null;
        }
        String path = jdbcUrl.substring("jdbc:h2:".length());
        int semicolon = path.indexOf(';');
        if (semicolon >= 0) {
            path = path.substring(0, semicolon);
        }
        if (path.startsWith("file:")) {
            path = path.substring("file:".length());
        }
        if (path.startsWith("~")) {
            path = System.getProperty("user.home") + path.substring(1);
        }
        return java.nio.file.Path.of(path + ".mv.db");
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
