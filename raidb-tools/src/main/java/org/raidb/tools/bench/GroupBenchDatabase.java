package org.raidb.tools.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.raidb.controller.Controller;
import org.raidb.controller.config.GroupConfig;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.RecoveryLogSettings;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.embedded.FreePort;

/**
 * The servers and controllers of {@code raidb bench group}, all started before the first
 * measurement and kept to the end, so that the setups can take turns round by round: {@code
 * controllers x backendsPerController} embedded PostgreSQL servers holding the same {@code
 * bench_accounts}; controller i of every setup has servers {@code [i*b, (i+1)*b)} as its own
 * backends (so setups share servers, but only one setup runs at a time); plain pgjdbc goes to the
 * first server. Each controller keeps its recovery log on (the default), RAIDb-1, completion all,
 * in its own data directory. Controllers run in this JVM, or, with a controller CPU cap, each in a
 * JVM of its own in a cgroup of its own ({@link ControllerProcess}), as one machine per controller.
 */
final class GroupBenchDatabase implements AutoCloseable {
    /** How long a group's members may take to see each other after the last one started. */
    private static final Duration VIEW_TIMEOUT = Duration.ofSeconds(30);

    private final EmbeddedPostgresCluster cluster;
    private final int backendsPerController;
    private final Map<GroupSetup, List<GroupMember>> controllers = new LinkedHashMap<>();
    private final List<Path> dataDirs = new ArrayList<>();
    private final double controllerCpu;
    private CpuCap cap;
    private CpuCap controllerCap;
    private String postgresVersion;

    private GroupBenchDatabase(EmbeddedPostgresCluster cluster, int backendsPerController, double controllerCpu) {
        this.cluster = cluster;
        this.backendsPerController = backendsPerController;
        this.controllerCpu = controllerCpu;
    }

    /**
     * Starts enough servers for the largest setup with {@code fsync} on or off, fills them, caps each
     * at {@code backendCpu} CPUs (0: uncapped), then starts every RAIDb setup of {@code setups}: in
     * this JVM when {@code controllerCpu} is 0, else each controller a process of its own capped at
     * {@code controllerCpu} CPUs.
     */
    static GroupBenchDatabase start(
            List<GroupSetup> setups,
            int backendsPerController,
            int rows,
            boolean fsync,
            double backendCpu,
            double controllerCpu)
            throws Exception {
        int most = setups.stream().mapToInt(GroupSetup::controllers).max().orElse(1);
        EmbeddedPostgresCluster cluster = EmbeddedPostgresCluster.start(
                Math.max(1, most) * backendsPerController, BenchDatabase.NAME, Map.of("fsync", fsync ? "on" : "off"));
        GroupBenchDatabase db = new GroupBenchDatabase(cluster, backendsPerController, controllerCpu);
        try {
            for (EmbeddedPostgresServer server : cluster.servers()) {
                db.postgresVersion = BenchDatabase.createTable(server, rows);
                BenchDatabase.checkFsync(server, fsync);
            }
            // Capped after filling: the cap slows the measured requests, not the set-up.
            List<CpuCap.CappedProcess> postmasters = new ArrayList<>();
            for (EmbeddedPostgresServer server : cluster.servers()) {
                postmasters.add(new CpuCap.CappedProcess(
                        server.name(), server.postmasterPid().orElse(-1)));
            }
            db.cap = CpuCap.apply(backendCpu, postmasters);
            for (GroupSetup setup : setups) {
                if (!setup.isPgjdbc()) {
                    db.startControllers(setup);
                }
            }
            if (controllerCpu > 0) {
                // Capped once started, as the backends once filled: the cap slows the measured requests.
                List<CpuCap.CappedProcess> processes = new ArrayList<>();
                db.controllers.forEach((setup, members) -> {
                    for (int i = 0; i < members.size(); i++) {
                        processes.add(new CpuCap.CappedProcess(
                                memberName(setup, i), members.get(i).pid().orElse(-1)));
                    }
                });
                db.controllerCap = CpuCap.apply(controllerCpu, processes, CpuCap.Kind.CONTROLLERS);
            }
            return db;
        } catch (Exception | Error e) {
            db.close();
            throw e;
        }
    }

    /** A controller's name in cgroups and file names: its setup and its place there. */
    private static String memberName(GroupSetup setup, int i) {
        return "controller-" + (i + 1) + "-of-" + setup.controllers() + (setup.grouped() ? "-group" : "");
    }

    private void startControllers(GroupSetup setup) throws Exception {
        boolean forked = controllerCpu > 0;
        List<GroupMember> started = new ArrayList<>();
        // Registered before waiting, so that close() stops them if one fails to start or the group never forms.
        controllers.put(setup, started);
        // A name of this run's own: another run's group on the machine is never joined.
        String groupName = "raidb-bench-" + setup.controllers() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        Integer firstPort = null;
        for (int i = 0; i < setup.controllers(); i++) {
            GroupConfig group = null;
            if (setup.grouped()) {
                group = new GroupConfig(
                        groupName,
                        "tcp-loopback.xml",
                        GroupConfig.Completion.ALL,
                        "127.0.0.1",
                        // A process's group port must be known before it starts: the next members are told it.
                        forked ? FreePort.pick() : 0,
                        firstPort == null ? List.of() : List.of("127.0.0.1:" + firstPort),
                        2000,
                        GroupConfig.WhenAlone.START);
            }
            Path dir = Files.createTempDirectory("raidb-bench-group");
            dataDirs.add(dir);
            Path dataDir = forked ? dir.resolve("data") : dir;
            RaidbConfig config =
                    BenchDatabase.configuration(backendsOf(i), dataDir, RecoveryLogSettings.DEFAULT, group);
            GroupMember c = forked
                    ? ControllerProcess.start(config, dir, memberName(setup, i))
                    : new GroupMember.InProcess(Controller.start(config));
            started.add(c);
            if (firstPort == null && setup.grouped()) {
                firstPort = c.groupPort();
            }
        }
        if (setup.grouped()) {
            awaitView(setup, started);
        }
    }

    /** Until every member sees all: a measurement with a member still joining would measure the join. */
    private static void awaitView(GroupSetup setup, List<GroupMember> members) throws Exception {
        long deadline = System.nanoTime() + VIEW_TIMEOUT.toNanos();
        for (GroupMember c : members) {
            int seen;
            while ((seen = c.viewSize()) != setup.controllers()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(setup.title() + ": a member sees " + seen + " member(s) after "
                            + VIEW_TIMEOUT.toSeconds() + " s, not " + setup.controllers());
                }
                Thread.sleep(50);
            }
        }
    }

    /** Controller {@code i}'s own servers. */
    private List<EmbeddedPostgresServer> backendsOf(int i) {
        return cluster.servers().subList(i * backendsPerController, (i + 1) * backendsPerController);
    }

    /**
     * The clients' connections for {@code setup}: the first server for pgjdbc; else round-robin over
     * the setup's controllers, client i to controller {@code i % n}, in the order the run opens them.
     */
    ClosedLoopRun.ConnectionSource clients(GroupSetup setup) {
        if (setup.isPgjdbc()) {
            return () -> cluster.servers().get(0).connect();
        }
        List<String> urls = urls(setup);
        AtomicInteger next = new AtomicInteger();
        return () -> DriverManager.getConnection(
                urls.get(next.getAndIncrement() % urls.size()), BenchDatabase.USER, BenchDatabase.PASSWORD);
    }

    /** Where {@code setup}'s clients connect to. */
    List<String> urls(GroupSetup setup) {
        if (setup.isPgjdbc()) {
            return List.of(cluster.servers().get(0).jdbcUrl());
        }
        return controllers.get(setup).stream()
                .map(c -> "jdbc:raidb://127.0.0.1:" + c.port() + "/" + BenchDatabase.NAME)
                .toList();
    }

    /** The postmasters of the servers {@code setup} uses, whose CPU time is reported as PostgreSQL's. */
    List<Long> postmasterPids(GroupSetup setup) {
        int servers = setup.isPgjdbc() ? 1 : setup.controllers() * backendsPerController;
        List<Long> pids = new ArrayList<>();
        cluster.servers().subList(0, servers).forEach(s -> s.postmasterPid().ifPresent(pids::add));
        return pids;
    }

    /** The processes of {@code setup}'s controllers when they run as processes of their own, else none. */
    List<Long> controllerPids(GroupSetup setup) {
        if (setup.isPgjdbc()) {
            return List.of();
        }
        List<Long> pids = new ArrayList<>();
        controllers.get(setup).forEach(c -> c.pid().ifPresent(pids::add));
        return pids;
    }

    /** In-process, or each controller a capped process of its own, and whether the cap was applied. */
    ControllerPlacement controllerPlacement() {
        return controllerCap == null
                ? ControllerPlacement.IN_PROCESS
                : new ControllerPlacement(controllerCpu, controllerCap.status());
    }

    /** Whether the backends are capped, and how, or why not. */
    String capStatus() {
        return cap == null ? "not applied" : cap.status();
    }

    String postgresVersion() {
        return postgresVersion;
    }

    String dataFileSystem() {
        return BenchDatabase.dataFileSystem(cluster);
    }

    @Override
    public void close() {
        try {
            for (List<GroupMember> cs : controllers.values()) {
                // The joiners first: the first member leaves last, as an operator would stop them.
                for (int i = cs.size() - 1; i >= 0; i--) {
                    cs.get(i).close();
                }
            }
        } finally {
            try {
                if (controllerCap != null) {
                    controllerCap.close();
                }
                if (cap != null) {
                    cap.close();
                }
            } finally {
                cluster.close();
                dataDirs.forEach(Pgpool::deleteTree);
            }
        }
    }
}
