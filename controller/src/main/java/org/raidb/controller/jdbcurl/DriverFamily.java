package org.raidb.controller.jdbcurl;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.raidb.controller.determinism.SqlDialect;

/** The JDBC drivers a backend (or a recovery-log store) may be reached with, by the prefixes of their URLs. */
public enum DriverFamily {
    POSTGRESQL("PostgreSQL", List.of("jdbc:postgresql:"), Map.of()),
    // MariaDB Connector/J 3 answers a server's LOAD DATA LOCAL INFILE request by default: any client statement
    // could then have the controller read its own files and send them to the backend.
    MARIADB("MariaDB or MySQL", List.of("jdbc:mariadb:", "jdbc:mysql:"), Map.of("allowLocalInfile", "false")),
    RAIDB("RAIDb", List.of("jdbc:raidb:"), Map.of()),
    H2("H2", List.of("jdbc:h2:"), Map.of());

    private final String product;
    // Both unmodifiable (List.copyOf, Map.copyOf): Error Prone trusts only Guava's immutable types.
    @SuppressWarnings("ImmutableEnumChecker")
    private final List<String> prefixes;

    @SuppressWarnings("ImmutableEnumChecker")
    private final Map<String, String> safeDefaults;

    DriverFamily(String product, List<String> prefixes, Map<String, String> safeDefaults) {
        this.product = product;
        this.prefixes = List.copyOf(prefixes);
        this.safeDefaults = Map.copyOf(safeDefaults);
    }

    /**
     * Connection properties the controller gives this driver in place of unsafe defaults. A URL cannot
     * turn them back on: {@link BackendUrlPolicy} refuses the options' other values.
     */
    public Map<String, String> safeDefaults() {
        return safeDefaults;
    }

    /** For messages: "PostgreSQL (jdbc:postgresql:)". */
    public String describe() {
        return product + " (" + String.join(", ", prefixes) + ")";
    }

    public String product() {
        return product;
    }

    /** How the analyser lexes this driver's statements and cuts its table names. */
    public SqlDialect dialect() {
        return switch (this) {
            case POSTGRESQL -> SqlDialect.POSTGRESQL;
            case MARIADB -> SqlDialect.MARIADB;
            case RAIDB, H2 -> SqlDialect.GENERIC;
        };
    }

    /** The dialect of a backend by its URL, before it has been reached: GENERIC for a driver no family names. */
    public static SqlDialect dialectOf(String url) {
        return of(url).map(DriverFamily::dialect).orElse(SqlDialect.GENERIC);
    }

    /**
     * The family whose prefix starts {@code url}. Compared without regard to case: a driver that accepted
     * {@code JDBC:H2:} would still be H2, so it must not pass for an unknown, unchecked one.
     */
    public static Optional<DriverFamily> of(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        for (DriverFamily family : values()) {
            for (String prefix : family.prefixes) {
                if (lower.startsWith(prefix)) {
                    return Optional.of(family);
                }
            }
        }
        return Optional.empty();
    }
}
