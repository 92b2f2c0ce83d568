package org.raidb.tools.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.UserCredentials;
import org.raidb.controller.config.VirtualDatabaseConfig;

/**
 * A benchmark's controller in a JVM of its own ({@code bench group --controller-cpu}): started from
 * this JVM's class path with {@code org.raidb.controller.cli.ControllerCommand --config FILE}, the
 * file written from the same {@link RaidbConfig} an in-process controller would get, so that it can
 * be put in a cgroup of its own like a machine of its own, and its CPU time read from /proc. Its
 * ports are 0 in the configuration: it says which it took in its log, as the controller ITs'
 * ForkedController and the TPC-W harness's ControllerProcess find them (neither is on this module's
 * class path: one is test code, the other a module that does not link against the controller).
 */
final class ControllerProcess implements GroupMember {
    private static final Pattern LISTENING = Pattern.compile("RAIDb controller \\S+ listening on [^:\\s]*:(\\d+)");
    private static final Pattern ADMIN_LISTENING = Pattern.compile("admin API listening on (http://\\S+:\\d+)/api");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    /** The controller's clean stop waits for its sessions at most its shutdownTimeout (30 s by default). */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    /** Three of them run beside the benchmark's JVM and the servers on one machine. */
    private static final String MAX_HEAP = "-Xmx512m";

    private final Process process;
    private final int port;
    private final AdminClient admin;
    private final VirtualDatabaseConfig vdb;

    private ControllerProcess(Process process, int port, AdminClient admin, VirtualDatabaseConfig vdb) {
        this.process = process;
        this.port = port;
        this.admin = admin;
        this.vdb = vdb;
    }

    /**
     * Writes {@code config} to {@code dir/NAME.xml} and starts a controller on it, its output in
     * {@code dir/NAME.log}; returns once it listens. The configuration has one virtual database,
     * whose admin asks its admin API for the group's view.
     */
    static ControllerProcess start(RaidbConfig config, Path dir, String name) throws IOException, InterruptedException {
        if (config.virtualDatabases().size() != 1) {
            throw new IllegalArgumentException("a benchmark's controller serves one virtual database");
        }
        VirtualDatabaseConfig vdb = config.virtualDatabases().get(0);
        Path file = Files.writeString(dir.resolve(name + ".xml"), ControllerConfigFile.xml(config));
        Path log = dir.resolve(name + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(
                        java,
                        MAX_HEAP,
                        "-cp",
                        System.getProperty("java.class.path"),
                        "org.raidb.controller.cli.ControllerCommand",
                        "--config",
                        file.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            int port = Integer.parseInt(awaitInLog(process, log, LISTENING));
            String adminBase = awaitInLog(process, log, ADMIN_LISTENING);
            UserCredentials admin = vdb.authentication().admin();
            return new ControllerProcess(
                    process, port, new AdminClient(URI.create(adminBase), admin.name(), admin.password()), vdb);
        } catch (IOException | InterruptedException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** The first match's group 1 in the controller's log, once it is there. */
    private static String awaitInLog(Process process, Path log, Pattern pattern)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            String text = Files.readString(log);
            Matcher m = pattern.matcher(text);
            if (m.find()) {
                return m.group(1);
            }
            // The log goes with the run's temporary directory: its end is in the message.
            String end = text.substring(Math.max(0, text.length() - 4000));
            if (!process.isAlive()) {
                throw new IllegalStateException("the controller process exited (" + process.exitValue()
                        + ") before it served; the end of its output:\n" + end);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the controller process did not serve within "
                        + START_TIMEOUT.toSeconds() + " s; the end of its output:\n" + end);
            }
            Thread.sleep(100);
        }
    }

    @Override
    public int port() {
        return port;
    }

    /** The port its configuration gives the group transport (chosen free before it started). */
    @Override
    public int groupPort() {
        if (vdb.group() == null) {
            throw new IllegalStateException("virtual database " + vdb.name() + " has no controller group");
        }
        return vdb.group().bindPort();
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.of(process.pid());
    }

    /** How many members the controller's group view holds, as its admin API says. */
    @Override
    public int viewSize() throws AdminCallException {
        return admin.get("/api/virtualdatabases/" + AdminClient.segment(vdb.name()) + "/controllers")
                .path("members")
                .size();
    }

    /** SIGTERM, as a service manager stops it: the controller stops cleanly (its final checkpoint). */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
