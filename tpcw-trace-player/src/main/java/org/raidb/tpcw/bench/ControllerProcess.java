package org.raidb.tpcw.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code raidb controller --config FILE} process over some backends. Port 0 in the configuration:
 * the controller picks a free port and says which in its "listening on HOST:PORT" line.
 */
final class ControllerProcess implements AutoCloseable {

    static final String USER = "bench";
    static final String PASSWORD = "bench";
    private static final Pattern LISTENING = Pattern.compile("listening on [^ ]+:(\\d+)");

    private final Process process;
    private final int port;

    private ControllerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * {@code placement}: element i the tables of backend i (static placement, or read from the schemas
     * when a backend holds none), or null for RAIDb-1.
     */
    static ControllerProcess start(
            RaidbHome home,
            List<BackendServer> backends,
            String database,
            BenchConfig bench,
            List<Set<String>> placement,
            Path workDir)
            throws Exception {
        Path config = workDir.resolve("raidb-" + bench.cliName + "-" + backends.size() + ".xml");
        Files.writeString(
                config, configuration(backends, database, bench, placement, workDir.resolve("controller-data")));
        Path log = workDir.resolve(config.getFileName().toString().replace(".xml", ".log"));
        Process process = new ProcessBuilder(home.raidbCommand(List.of("controller", "--config", config.toString())))
                .redirectErrorStream(true)
                .start();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread pump = new Thread(() -> copyLogFindingPort(process, log, port), "controller-log");
        pump.setDaemon(true);
        pump.start();
        try {
            return new ControllerProcess(process, port.get(2, TimeUnit.MINUTES));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("the controller did not start; see " + log, e);
        }
    }

    private static void copyLogFindingPort(Process process, Path log, CompletableFuture<Integer> port) {
        try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                var out = Files.newBufferedWriter(log)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.newLine();
                out.flush();
                Matcher m = LISTENING.matcher(line);
                if (!port.isDone() && m.find()) {
                    port.complete(Integer.parseInt(m.group(1)));
                }
            }
        } catch (IOException e) {
            port.completeExceptionally(e);
        }
        port.completeExceptionally(new IllegalStateException("controller exited"));
    }

    static String configuration(
            List<BackendServer> backends,
            String database,
            BenchConfig bench,
            List<Set<String>> placement,
            Path dataDir) {
        StringBuilder x = new StringBuilder("<raidb>\n");
        x.append("  <controller host=\"127.0.0.1\" port=\"0\" adminPort=\"0\" dataDir=\"")
                .append(dataDir)
                .append("\"/>\n");
        x.append("  <virtualDatabase name=\"").append(database).append("\">\n");
        // A static placement must give every backend its tables; one holding none (RAIDb-0 beyond the
        // paper's two groups of tables) cannot be written so: the controller then reads every backend's
        // tables from its schema, which the harness cut down to the placement beforehand.
        boolean listTables = placement != null && placement.stream().noneMatch(Set::isEmpty);
        x.append("    <authentication>\n      <admin user=\"admin\" password=\"admin\"/>\n");
        x.append("      <virtualUser name=\"")
                .append(USER)
                .append("\" password=\"")
                .append(PASSWORD)
                .append("\"/>\n");
        x.append("    </authentication>\n");
        for (int i = 0; i < backends.size(); i++) {
            BackendServer b = backends.get(i);
            // poolSize: at least one connection per player session, so that the pool is never what limits.
            x.append("    <backend name=\"")
                    .append(b.name())
                    .append("\" url=\"")
                    .append(b.url(database))
                    .append("\" user=\"")
                    .append(b.user())
                    .append("\" password=\"")
                    .append(b.password())
                    .append("\" poolSize=\"150\"");
            if (!listTables) {
                x.append("/>\n");
            } else {
                x.append(">\n");
                new TreeSet<>(placement.get(i))
                        .forEach(t -> x.append("      <table name=\"").append(t).append("\"/>\n"));
                x.append("    </backend>\n");
            }
        }
        // No <scheduler>: the controller's default. The player re-runs deadlock victims (40001/40P01),
        // and the final state does not depend on which transaction won (docs/tpcw.md, "Replaying through RAIDb").
        switch (bench.level) {
            case "raidb1" ->
                x.append("    <raidb1 readPolicy=\"").append(bench.readPolicy).append("\" completion=\"all\"/>\n");
            // Best Sellers' temporary table (--best-sellers temp-table) goes to 2 of the backends holding
            // orders, as in the paper (section 7.5.4); the default sub-query variant creates none.
            case "raidb2" ->
                x.append("    <raidb2 readPolicy=\"")
                        .append(bench.readPolicy)
                        .append("\" completion=\"all\">\n")
                        .append(
                                "      <createTable policy=\"roundRobin\" nodes=\"2\" tables=\"best_sellers_*\"/>\n    </raidb2>\n");
            case "raidb0" -> x.append("    <raidb0/>\n");
            default -> throw new IllegalArgumentException("no controller for " + bench.cliName);
        }
        x.append("  </virtualDatabase>\n</raidb>\n");
        return x.toString();
    }

    String url(String database) {
        return "jdbc:raidb://127.0.0.1:" + port + "/" + database;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
