package org.raidb.controller.it.pgwire;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** PostgreSQL's own client programs (libpq), as Debian installs them: the real clients of the front end. */
public final class PostgresClientPrograms {
    private PostgresClientPrograms() {}

    /** {@code psql}, {@code pgbench}, ...: the PostgreSQL 15 one, else the one on the path; null when neither. */
    public static Path find(String program) {
        for (String candidate : List.of("/usr/lib/postgresql/15/bin/" + program, "/usr/bin/" + program)) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }
}
