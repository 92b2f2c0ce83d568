package org.raidb.controller.recovery;

import java.util.List;
import java.util.Map;
import org.raidb.controller.backup.Backuper;
import org.raidb.controller.backup.jdbc.JdbcCopier;
import org.raidb.controller.backup.pgdump.PgDumpBackuper;

/** The backupers a configuration can name. */
public final class Backupers {

    /** Names accepted by {@link #byName}, in the order error messages list them. */
    public static final List<String> NAMES = List.of(PgDumpBackuper.NAME, JdbcCopier.NAME);

    private Backupers() {}

    /**
     * The backuper called {@code name} (case does not matter), configured with {@code options}.
     *
     * @throws IllegalArgumentException for an unknown name or option, or an option value that does
     *     not parse; the message names what is wrong and what is valid
     */
    public static Backuper byName(String name, Map<String, String> options) {
        String trimmed = name == null ? "" : name.trim();
        if (trimmed.equalsIgnoreCase(PgDumpBackuper.NAME)) {
            return PgDumpBackuper.configured(options);
        }
        if (trimmed.equalsIgnoreCase(JdbcCopier.NAME)) {
            return JdbcCopier.configured(options);
        }
        throw new IllegalArgumentException(
                "unknown backuper '" + trimmed + "'; valid backupers: " + String.join(", ", NAMES)
                        + " (pgDump for PostgreSQL backends, jdbcCopy for any product and across products)");
    }
}
