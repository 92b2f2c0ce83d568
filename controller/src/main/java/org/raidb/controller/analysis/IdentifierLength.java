package org.raidb.controller.analysis;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import org.raidb.controller.determinism.SqlDialect;

/**
 * How long a name the backends keep may be. PostgreSQL silently truncates identifiers to 63 bytes
 * (NAMEDATALEN - 1) of their UTF-8 form, at a character boundary, so {@code CREATE TABLE} with a
 * 70-character name makes a table of the first 63; the controller must know the table by that name,
 * whichever spelling later statements use. MariaDB refuses names over 64 characters instead, and
 * other databases are taken to keep what they are given.
 */
public enum IdentifierLength {
    UNLIMITED(Integer.MAX_VALUE),
    POSTGRESQL(63);

    private final int maxBytes;

    IdentifierLength(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** PostgreSQL's rule as soon as one backend is PostgreSQL: every backend must know a table by one name. */
    public static IdentifierLength of(Collection<SqlDialect> dialects) {
        return dialects.contains(SqlDialect.POSTGRESQL) ? POSTGRESQL : UNLIMITED;
    }

    /** The name as the backend keeps it: cut to the longest run of whole characters that fits. */
    public String clip(String name) {
        // No char takes more than 3 UTF-8 bytes (a surrogate pair takes 4 for 2), so short names need no count.
        if (this == UNLIMITED
                || name.length() * 3 <= maxBytes
                || name.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
            return name;
        }
        int bytes = 0;
        int i = 0;
        while (i < name.length()) {
            int codePoint = name.codePointAt(i);
            int size = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
            if (bytes + size > maxBytes) {
                break;
            }
            bytes += size;
            i += Character.charCount(codePoint);
        }
        return name.substring(0, i);
    }
}
