package org.raidb.tpcw.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@code raidb backends} process: N embedded PostgreSQL servers, stopped (and deleted) with the process. */
final class BackendProcesses implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final Process process;
    private final List<BackendServer> servers;

    private BackendProcesses(Process process, List<BackendServer> servers) {
        this.process = process;
        this.servers = servers;
    }

    static BackendProcesses start(RaidbHome home, int count, String database, Path workDir) throws Exception {
        Path portFile = workDir.resolve("backends.json");
        Files.deleteIfExists(portFile);
        Path log = workDir.resolve("backends.log");
        Process process = new ProcessBuilder(home.raidbCommand(List.of(
                        "backends",
                        "--count",
                        Integer.toString(count),
                        "--database",
                        database,
                        "--port-file",
                        portFile.toString())))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!Files.exists(portFile)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("raidb backends exited with " + process.exitValue() + "; see " + log);
            }
            if (System.nanoTime() > deadline) {
                process.destroy();
                throw new IllegalStateException(
                        "raidb backends did not start within " + START_TIMEOUT.toMinutes() + " min; see " + log);
            }
            Thread.sleep(200);
        }
        List<BackendServer> servers =
                new ObjectMapper().readValue(portFile.toFile(), new TypeReference<List<BackendServer>>() {});
        return new BackendProcesses(process, servers);
    }

    List<BackendServer> servers() {
        return servers;
    }

    /** SIGTERM: the process's shutdown hook stops the servers and deletes their data. */
    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
