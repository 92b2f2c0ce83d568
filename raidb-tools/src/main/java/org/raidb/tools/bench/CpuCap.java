package org.raidb.tools.bench;

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
 *
 * <p>A copy of {@code tpcw bench --backend-cpu}'s cap (tpcw-trace-player's {@code CpuCap}), taking
 * embedded servers' postmasters: the TPC-W module depends on neither this module nor
 * raidb-embedded, and should not pull the embedded PostgreSQL binaries in for one class.
 */
final class CpuCap implements AutoCloseable {

    private static final Path V1 = Path.of("/sys/fs/cgroup/cpu");
    private static final Path V2 = Path.of("/sys/fs/cgroup");
    private static final long PERIOD_MICROS = 100_000;
    /** The cgroups' names begin so: one per server, named by the server and its postmaster's pid. */
    static final String GROUP_PREFIX = "raidb-bench-";

    /** A process to cap (a server's postmaster with what it forks, or a controller's JVM): a name, and its id. */
    record CappedProcess(String name, long pid) {}

    /**
     * What is capped, in the status: "backend" with its postmaster (the process tree), or "controller"
     * (a controller's JVM: all its threads are its process's), and the option that set the cap.
     */
    record Kind(String noun, String processNoun, String option) {
        static final Kind BACKENDS = new Kind("backend", "postmaster", "--backend-cpu");
        static final Kind CONTROLLERS = new Kind("controller", "controller process", "--controller-cpu");
    }

    private final double cpus;
    private final Kind kind;
    private final Path v1;
    private final Path v2;
    private final List<Path> groups = new ArrayList<>();
    private String status;

    private CpuCap(double cpus, Kind kind, Path v1, Path v2) {
        this.cpus = cpus;
        this.kind = kind;
        this.v1 = v1;
        this.v2 = v2;
    }

    /** Caps each server's processes; never throws: a failure is reported in {@link #status()}. */
    static CpuCap apply(double cpus, List<CappedProcess> servers) {
        return apply(cpus, servers, Kind.BACKENDS, V1, V2);
    }

    /**
     * Caps each of {@code processes} (name and pid) as {@code kind}, a cgroup each; never throws, as
     * {@link #apply(double, List)}.
     */
    static CpuCap apply(double cpus, List<CappedProcess> processes, Kind kind) {
        return apply(cpus, processes, kind, V1, V2);
    }

    /** As {@link #apply(double, List, Kind)}, with the cgroup v1 CPU and v2 hierarchies at these places (tests). */
    static CpuCap apply(double cpus, List<CappedProcess> servers, Kind kind, Path v1, Path v2) {
        CpuCap cap = new CpuCap(cpus, kind, v1, v2);
        if (cpus <= 0) {
            cap.status = "not applied (" + kind.option() + " 0: " + kind.noun() + "s uncapped)";
            return cap;
        }
        try {
            for (CappedProcess server : servers) {
                cap.capOne(server);
            }
            cap.status = String.format(
                    java.util.Locale.ROOT,
                    "applied: %.2f CPU per %s (cgroup %s, quota %d us per %d us)",
                    cpus,
                    kind.noun(),
                    Files.isRegularFile(v1.resolve("cpu.cfs_quota_us")) ? "v1" : "v2",
                    cap.quotaMicros(),
                    PERIOD_MICROS);
        } catch (IOException | RuntimeException e) {
            cap.status = "NOT applied (" + e.getMessage() + "): " + kind.noun() + "s run uncapped";
            cap.close();
        }
        return cap;
    }

    private long quotaMicros() {
        return Math.max(1000, Math.round(cpus * PERIOD_MICROS));
    }

    private void capOne(CappedProcess server) throws IOException {
        long quota = quotaMicros();
        Path group;
        if (Files.isRegularFile(v1.resolve("cpu.cfs_quota_us"))) {
            group = Files.createDirectories(v1.resolve(GROUP_PREFIX + server.name() + "-" + server.pid()));
            groups.add(group);
            Files.writeString(group.resolve("cpu.cfs_period_us"), Long.toString(PERIOD_MICROS));
            Files.writeString(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        } else if (Files.isRegularFile(v2.resolve("cgroup.controllers"))) {
            group = Files.createDirectories(v2.resolve(GROUP_PREFIX + server.name() + "-" + server.pid()));
            groups.add(group);
            Files.writeString(group.resolve("cpu.max"), quota + " " + PERIOD_MICROS);
        } else {
            throw new IOException("no cgroup CPU controller found under " + v2);
        }
        ProcessHandle postmaster = ProcessHandle.of(server.pid())
                .orElseThrow(() -> new IOException(
                        kind.processNoun() + " " + server.pid() + " of " + server.name() + " is not running"));
        List<ProcessHandle> processes = new ArrayList<>(List.of(postmaster));
        postmaster.descendants().forEach(processes::add);
        for (ProcessHandle p : processes) {
            Files.writeString(group.resolve("cgroup.procs"), Long.toString(p.pid()));
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
