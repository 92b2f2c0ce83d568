package org.raidb.tpcw.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Slows a backend down, as the paper's deliberately slow machines did, so that the databases and
 * not the controller or the player are the bottleneck: a CPU cgroup per backend with a quota of
 * {@code cpus} CPUs, holding its postmaster and every process it has forked (processes it forks
 * later are born in the group). Needs root and a writable cgroup file system, v1 ({@code
 * /sys/fs/cgroup/cpu}) or v2 ({@code cpu.max}); otherwise nothing is capped and {@link #status()}
 * says why.
 */
final class CpuCap implements AutoCloseable {

    private static final Path V1 = Path.of("/sys/fs/cgroup/cpu");
    private static final Path V2 = Path.of("/sys/fs/cgroup");
    private static final long PERIOD_MICROS = 100_000;

    private final double cpus;
    private final Path v1;
    private final Path v2;
    private final List<Path> groups = new ArrayList<>();
    private String status;

    private CpuCap(double cpus, Path v1, Path v2) {
        this.cpus = cpus;
        this.v1 = v1;
        this.v2 = v2;
    }

    /** Caps each server's processes; never throws: a failure is reported in {@link #status()}. */
    static CpuCap apply(double cpus, List<BackendServer> servers) {
        return apply(cpus, servers, V1, V2);
    }

    /** As {@link #apply(double, List)}, with the cgroup v1 CPU and v2 hierarchies at these places (tests). */
    static CpuCap apply(double cpus, List<BackendServer> servers, Path v1, Path v2) {
        CpuCap cap = new CpuCap(cpus, v1, v2);
        if (cpus <= 0) {
            cap.status = "not applied (--backend-cpu 0: backends uncapped)";
            return cap;
        }
        try {
            for (BackendServer server : servers) {
                cap.capOne(server);
            }
            cap.status = String.format(
                    java.util.Locale.ROOT,
                    "applied: %.2f CPU per backend (cgroup %s, quota %d us per %d us)",
                    cpus,
                    Files.isRegularFile(v1.resolve("cpu.cfs_quota_us")) ? "v1" : "v2",
                    cap.quotaMicros(),
                    PERIOD_MICROS);
        } catch (IOException | RuntimeException e) {
            cap.status = "NOT applied (" + e.getMessage() + "): backends run uncapped";
            cap.close();
        }
        return cap;
    }

    private long quotaMicros() {
        return Math.max(1000, Math.round(cpus * PERIOD_MICROS));
    }

    private void capOne(BackendServer server) throws IOException {
        long quota = quotaMicros();
        Path group;
        if (Files.isRegularFile(v1.resolve("cpu.cfs_quota_us"))) {
            group = Files.createDirectories(v1.resolve("raidb-tpcw-" + server.name() + "-" + server.pid()));
            groups.add(group);
            Files.writeString(group.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_MICROS));
            Files.writeString(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        } else if (Files.isRegularFile(v2.resolve("cgroup.controllers"))) {
            group = Files.createDirectories(v2.resolve("raidb-tpcw-" + server.name() + "-" + server.pid()));
            groups.add(group);
            Files.writeString(group.resolve("cpu.max"), quota + " " + PERIOD_MICROS);
        } else {
            throw new IOException("no cgroup CPU controller found under " + v2);
        }
        ProcessHandle postmaster = ProcessHandle.of(server.pid())
                .orElseThrow(() ->
                        new IOException("postmaster " + server.pid() + " of " + server.name() + " is not running"));
        List<ProcessHandle> processes = new ArrayList<>(List.of(postmaster));
        postmaster.descendants().forEach(processes::add);
        for (ProcessHandle p : processes) {
            try {
                Files.writeString(group.resolve("cgroup.procs"), Long.toString(p.pid()));
            } catch (IOException e) {
                if (p.isAlive()) {
                    throw e;
                }
                // A connection's process that ended after it was listed ("No such process"): nothing to cap.
            }
        }
    }

    String status() {
        return status;
    }

    boolean applied() {
        return status.startsWith("applied");
    }

    /** A process that exits meanwhile cannot be moved, and need not be. */
    private static void moveQuietly(String pid, Path rootProcs) {
        if (pid.isEmpty()) {
            return;
        }
        try {
            Files.writeString(rootProcs, pid);
        } catch (IOException e) {
            // exited
        }
    }

    /** Moves any process left back to the root group and removes the groups. */
    @Override
    public void close() {
        for (Path group : groups) {
            Path root = group.getParent().resolve("cgroup.procs");
            try {
                for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
                    moveQuietly(pid.strip(), root);
                }
            } catch (IOException | RuntimeException e) {
                // the group is gone already
            }
            try {
                Files.deleteIfExists(group);
            } catch (IOException e) {
                // still busy: a process forked while we moved the others; the group stays, empty of quota users
            }
        }
        groups.clear();
    }
}
