package org.raidb.embedded;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the servers' directories go, and what a new server's data directory starts as.
 *
 * <p>Where: under the directory named by the system property {@value #DIRECTORY_PROPERTY} (else the
 * environment variable {@value #DIRECTORY_VARIABLE}, which processes a test starts inherit) when it
 * is set, exists, is writable and has {@value #MIN_FREE_GIB} GiB free, else in the system's temp
 * directory. The build points it at {@code /dev/shm}: on tmpfs, initdb, CREATE DATABASE, checkpoints
 * and each commit's fsync cost next to nothing, while a kill -9 loses exactly what it loses on a disk
 * (the kernel keeps what a killed process wrote; only a machine crash needs the fsync), so crash
 * tests see what they would see on disk. A small tmpfs (a container's 64 MB {@code /dev/shm}) is
 * passed over.
 *
 * <p>A cluster may ask to stay on disk (see {@link EmbeddedPostgresCluster#start(int, String,
 * boolean)}): clients that commit without a disk's fsync write many times faster, and a test that
 * replays the recovery log while they write chases them far longer.
 *
 * <p>What: initdb runs once per JVM and launcher, into a template that is started once and stopped
 * cleanly; every new server's data directory is a copy of it (initdb, 0.5 to 2 s of a loaded
 * machine's time per server, becomes a copy of about 40 MB). The copy is what initdb would have
 * produced: same options, same owner and modes, no database but the built-in ones.
 */
final class DataDirectories {

    /** System property: the directory to create the servers' directories in. */
    static final String DIRECTORY_PROPERTY = "raidb.embedded.directory";
    /** Environment variable: the same, where the system property is not set. */
    static final String DIRECTORY_VARIABLE = "RAIDB_EMBEDDED_DIRECTORY";

    static final int MIN_FREE_GIB = 2;

    private static final Logger log = LoggerFactory.getLogger(DataDirectories.class);
    /** Files of a running or crashed postmaster, never part of a fresh data directory. */
    private static final Set<String> NOT_COPIED = Set.of("postmaster.pid", "postmaster.opts", "epg-lock");

    /** Template data directories by launcher description, made on first use, deleted at JVM exit. */
    private static final Map<String, Path> templates = new HashMap<>();

    private DataDirectories() {}

    /**
     * A new, empty directory for a cluster's servers: where the class comment says, or in the system's
     * temp directory whatever is configured when {@code onDisk}.
     */
    static Path newClusterDirectory(boolean onDisk) throws IOException {
        return onDisk ? Files.createTempDirectory("raidb-pg-") : Files.createTempDirectory(root(), "raidb-pg-");
    }

    private static Path root() throws IOException {
        String configured = System.getProperty(
                        DIRECTORY_PROPERTY, System.getenv().getOrDefault(DIRECTORY_VARIABLE, ""))
                .trim();
        Path temp = Path.of(System.getProperty("java.io.tmpdir"));
        if (configured.isEmpty()) {
            return temp;
        }
        Path directory = Path.of(configured);
        if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
            log.info("{} is not a writable directory: the servers go to {}", configured, temp);
            return temp;
        }
        long free = Files.getFileStore(directory).getUsableSpace();
        if (free < ((long) MIN_FREE_GIB << 30)) {
            log.info(
                    "{} has {} MiB free, less than {} GiB: the servers go to {}",
                    configured,
                    free >> 20,
                    MIN_FREE_GIB,
                    temp);
            return temp;
        }
        return directory;
    }

    /**
     * Makes {@code dataDirectory} (which must not exist) a copy of the launcher's template, making the
     * template first if this JVM has none yet for that launcher.
     */
    static void copyTemplate(PostgresLauncher launcher, Path dataDirectory) throws IOException {
        copyTree(template(launcher), dataDirectory);
    }

    private static synchronized Path template(PostgresLauncher launcher) throws IOException {
        Path template = templates.get(launcher.description());
        if (template != null) {
            return template;
        }
        Path directory = Files.createTempDirectory(root(), "raidb-pg-template-");
        if (templates.isEmpty()) {
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(DataDirectories::deleteTemplates, "embedded-postgres-templates"));
        }
        long begin = System.nanoTime();
        try {
            template = EmbeddedPostgresServer.initialiseStopped(directory.resolve("server"), launcher);
        } catch (IOException | RuntimeException e) {
            DirectoryCleaner.deleteRecursively(directory);
            throw e;
        }
        templates.put(launcher.description(), template);
        log.info(
                "template data directory {} made in {} ms (initdb, one start and stop): new servers start from a copy",
                template,
                (System.nanoTime() - begin) / 1_000_000);
        return template;
    }

    private static synchronized void deleteTemplates() {
        // The template's own directory is two levels up: <template dir>/server/data.
        templates
                .values()
                .forEach(t -> DirectoryCleaner.deleteRecursively(t.getParent().getParent()));
        templates.clear();
    }

    /** Copies a directory tree keeping owner, modes and times (PostgreSQL checks its data directory's mode). */
    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.copy(dir, to.resolve(from.relativize(dir).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (!NOT_COPIED.contains(file.getFileName().toString())) {
                    Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
