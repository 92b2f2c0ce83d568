package org.raidb.controller.backup.pgdump;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.raidb.controller.backup.BackupException;

/**
 * Where pg_dump and pg_restore are. They come from the same directory so that their versions agree:
 * the configured {@code toolsDir} if there is one, else the first directory of PATH holding
 * pg_dump, else the newest {@code /usr/lib/postgresql/<version>/bin} (Debian installs client tools
 * of several versions side by side there).
 */
public record PgTools(Path pgDump, Path pgRestore) {

    /** The Debian package that provides the tools, named in the error when they are missing. */
    public static final String DEBIAN_PACKAGE = "postgresql-client";

    static final Path DEBIAN_VERSIONS_DIR = Path.of("/usr/lib/postgresql");

    /** Looks up the tools on this machine. */
    public static PgTools locate(Optional<Path> toolsDir) throws BackupException {
        return locate(toolsDir, System.getenv("PATH"), DEBIAN_VERSIONS_DIR);
    }

    /** Looks up the tools given PATH's value and the directory of per-version installations. */
    static PgTools locate(Optional<Path> toolsDir, String pathVariable, Path versionsDir) throws BackupException {
        if (toolsDir.isPresent()) {
            Path dir = toolsDir.get();
            if (!hasTools(dir)) {
                throw missing(
                        "in the configured toolsDir " + dir.toAbsolutePath(),
                        "or correct the backuper option toolsDir");
            }
            return in(dir);
        }
        for (Path dir : pathDirectories(pathVariable)) {
            if (hasTools(dir)) {
                return in(dir);
            }
        }
        Optional<Path> newest = newestVersionBin(versionsDir);
        if (newest.isPresent()) {
            return in(newest.get());
        }
        throw missing(
                "on PATH nor in " + versionsDir + "/*/bin",
                "or set the backuper option toolsDir to the directory holding them");
    }

    private static PgTools in(Path dir) {
        return new PgTools(dir.resolve("pg_dump"), dir.resolve("pg_restore"));
    }

    private static BackupException missing(String where, String alternative) {
        return new BackupException(
                "pg_dump and pg_restore not found " + where + ": install the Debian package "
                        + DEBIAN_PACKAGE + " (apt-get install " + DEBIAN_PACKAGE
                        + ", same or newer major version as the servers) "
                        + alternative,
                BackupException.IO_FAILURE);
    }

    private static boolean hasTools(Path dir) {
        return isExecutable(dir.resolve("pg_dump")) && isExecutable(dir.resolve("pg_restore"));
    }

    private static boolean isExecutable(Path file) {
        return Files.isRegularFile(file) && Files.isExecutable(file);
    }

    private static List<Path> pathDirectories(String pathVariable) {
        if (pathVariable == null || pathVariable.isBlank()) {
            return List.of();
        }
        return Stream.of(pathVariable.split(File.pathSeparator))
                .filter(s -> !s.isBlank())
                .map(Path::of)
                .toList();
    }

    /** The highest numeric version directory whose bin holds both tools: 15 before 9.6, 16 before 15. */
    private static Optional<Path> newestVersionBin(Path versionsDir) {
        if (!Files.isDirectory(versionsDir)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(versionsDir)) {
            return versions.filter(v -> v.getFileName().toString().matches("\\d+(\\.\\d+)?"))
                    .filter(v -> hasTools(v.resolve("bin")))
                    .max(Comparator.comparingDouble(
                            v -> Double.parseDouble(v.getFileName().toString())))
                    .map(v -> v.resolve("bin"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
