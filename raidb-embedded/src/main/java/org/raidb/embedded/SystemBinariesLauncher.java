package org.raidb.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fallback: the machine's own PostgreSQL binaries ({@code /usr/lib/postgresql/VERSION/bin}), for
 * machines where zonky cannot run (as root with user namespaces blocked, zonky's initdb would run
 * as root and fail). As root, initdb and pg_ctl run as the {@code postgres} user through
 * {@code runuser -u postgres --}. Only data directories of our own are used, on ports of our own:
 * the machine's PostgreSQL service is never touched.
 */
final class SystemBinariesLauncher implements PostgresLauncher {

    private static final Logger log = LoggerFactory.getLogger(SystemBinariesLauncher.class);
    private static final Path INSTALL_ROOT = Path.of("/usr/lib/postgresql");
    private static final String OS_USER = "postgres";

    private final Path binDirectory;
    private final boolean asPostgresUser;
    private final Map<String, String> settings;

    private SystemBinariesLauncher(Path binDirectory, boolean asPostgresUser, Map<String, String> settings) {
        this.binDirectory = binDirectory;
        this.asPostgresUser = asPostgresUser;
        this.settings = new LinkedHashMap<>(settings);
    }

    @Override
    public PostgresLauncher withSettings(Map<String, String> overrides) {
        return new SystemBinariesLauncher(binDirectory, asPostgresUser, PostgresServerSettings.with(overrides));
    }

    /** The newest installed version's binaries, if any (and runuser, when we are root). */
    static Optional<SystemBinariesLauncher> find() {
        Optional<Path> bin = newestBinDirectory();
        if (bin.isEmpty()) {
            return Optional.empty();
        }
        boolean root = CurrentUser.isRoot();
        if (root
                && !Files.isExecutable(Path.of("/usr/sbin/runuser"))
                && !Files.isExecutable(Path.of("/sbin/runuser"))) {
            return Optional.empty();
        }
        return Optional.of(new SystemBinariesLauncher(bin.get(), root, PostgresServerSettings.all()));
    }

    private static Optional<Path> newestBinDirectory() {
        if (!Files.isDirectory(INSTALL_ROOT)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(INSTALL_ROOT)) {
            return versions.filter(v -> v.getFileName().toString().matches("\\d+"))
                    .map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparingInt(
                            b -> Integer.parseInt(b.getParent().getFileName().toString())));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public String description() {
        return "the machine's own binaries in " + binDirectory
                + (asPostgresUser ? " run as user postgres via runuser" : "");
    }

    @Override
    public LaunchedPostgres start(Path serverDirectory, int port) throws IOException {
        Path dataDirectory = PostgresLauncher.dataDirectory(serverDirectory);
        Files.createDirectories(serverDirectory);
        if (asPostgresUser) {
            // The postgres user must reach its directory through our (root-owned, 0700) temp dir.
            Files.setPosixFilePermissions(serverDirectory.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
            giveToPostgresUser(serverDirectory);
        }
        if (!Files.exists(dataDirectory.resolve("PG_VERSION"))) {
            run(
                    serverDirectory,
                    120,
                    bin("initdb"),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "-E",
                    "UTF-8",
                    "--locale=C",
                    "-D",
                    dataDirectory.toString());
        }
        run(
                serverDirectory,
                ZonkyLauncher.STARTUP_WAIT.toSeconds() + 30,
                bin("pg_ctl"),
                "-D",
                dataDirectory.toString(),
                "-l",
                serverDirectory.resolve("postgres.log").toString(),
                "-w",
                "-t",
                Long.toString(ZonkyLauncher.STARTUP_WAIT.toSeconds()),
                "-o",
                serverOptions(port),
                "start");
        return new LaunchedPostgres() {
            @Override
            public void stop() {
                try {
                    run(
                            serverDirectory,
                            90,
                            bin("pg_ctl"),
                            "-D",
                            dataDirectory.toString(),
                            "-m",
                            "fast",
                            "-w",
                            "-t",
                            "60",
                            "stop");
                } catch (IOException e) {
                    log.warn("pg_ctl stop failed for {}: {}", dataDirectory, e.getMessage());
                }
            }

            @Override
            public void forgetKilled() {
                // Nothing held on our side: the next pg_ctl start finds the stale postmaster.pid and
                // PostgreSQL does its crash recovery.
            }
        };
    }

    /** The postgres -o string: pg_ctl hands it to a shell, hence the quoting of each value. */
    private String serverOptions(int port) {
        StringBuilder options = new StringBuilder("-p ").append(port);
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            options.append(" -c ")
                    .append(setting.getKey())
                    .append("='")
                    .append(setting.getValue())
                    .append('\'');
        }
        return options.toString();
    }

    private String bin(String name) {
        return binDirectory.resolve(name).toString();
    }

    private void run(Path serverDirectory, long timeoutSeconds, String... command) throws IOException {
        List<String> full = new ArrayList<>();
        if (asPostgresUser) {
            full.addAll(List.of("runuser", "-u", OS_USER, "--"));
        }
        full.addAll(List.of(command));
        // Output goes to a file, not a pipe: pg_ctl's daemonised postmaster could otherwise keep the
        // pipe open and make waitFor() hang.
        Path output = serverDirectory.resolve("launcher.log");
        Process process = new ProcessBuilder(full)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .start();
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("timed out after " + timeoutSeconds + " s: " + String.join(" ", full));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", full), e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("exit " + process.exitValue() + ": " + String.join(" ", full) + "\n" + tail(output)
                    + tail(serverDirectory.resolve("postgres.log")));
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())) + "\n";
        } catch (IOException e) {
            return "";
        }
    }

    private static void giveToPostgresUser(Path directory) throws IOException {
        UserPrincipalLookupService lookup = directory.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal user = lookup.lookupPrincipalByName(OS_USER);
        GroupPrincipal group = lookup.lookupPrincipalByGroupName(OS_USER);
        PosixFileAttributeView view = Files.getFileAttributeView(directory, PosixFileAttributeView.class);
        view.setOwner(user);
        view.setGroup(group);
    }
}
