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
import org.raidb.controller.config.RecoveryLogSettings;
import org.raidb.controller.group.ActiveReplication;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * The servers and controllers of {@code raidb bench group}, all started before the first
 * measurement and kept to the end, so that the setups can take turns round by round: {@code
 * controllers x backendsPerController} embedded PostgreSQL servers holding the same {@code
 * bench_accounts}; controller i of every setup has servers {@code [i*b, (i+1)*b)} as its own
 * backends (so setups share servers, but only one setup runs at a time); plain pgjdbc goes to the
 * first server. Each controller keeps its recovery log on (the default), RAIDb-1, completion all,
 * in its own data directory.
 */
final class GroupBenchDatabase implements AutoCloseable {
    /** How long a group's members may take to see each other after the last one started. */
    private static final Duration VIEW_TIMEOUT = Duration.ofSeconds(30);

    private final EmbeddedPostgresCluster cluster;
    private final int backendsPerController;
    private final Map<GroupSetup, List<Controller>> controllers = new LinkedHashMap<>();
    private final List<Path> dataDirs = new ArrayList<>();
    private CpuCap cap;
    private String postgresVersion;

    private GroupBenchDatabase(EmbeddedPostgresCluster cluster, int backendsPerController) {
        this.cluster = cluster;
        this.backendsPerController = backendsPerController;
    }

    /**
     * Starts enough servers for the largest setup with {@code fsync} on or off, fills them, caps each
     * at {@code backendCpu} CPUs (0: uncapped), then starts every RAIDb setup of {@code setups}.
     */
    static GroupBenchDatabase start(
            List<GroupSetup> setups, int backendsPerController, int rows, boolean fsync, double backendCpu)
            throws Exception {
        int most = setups.stream().mapToInt(GroupSetup::controllers).max().orElse(1);
        EmbeddedPostgresCluster cluster = EmbeddedPostgresCluster.start(
                Math.max(1, most) * backendsPerController, BenchDatabase.NAME, Map.of("fsync", fsync ? "on" : "off"));
        GroupBenchDatabase db = new GroupBenchDatabase(cluster, backendsPerController);
        try {
            for (EmbeddedPostgresServer server : cluster.servers()) {
                db.postgresVersion = BenchDatabase.createTable(server, rows);
                BenchDatabase.checkFsync(server, fsync);
            }
            // Capped after filling: the cap slows the measured requests, not the set-up.
            List<CpuCap.Postmaster> postmasters = new ArrayList<>();
            for (EmbeddedPostgresServer server : cluster.servers()) {
                postmasters.add(new CpuCap.Postmaster(
                        server.name(), server.postmasterPid().orElse(-1)));
            }
            db.cap = CpuCap.apply(backendCpu, postmasters);
            for (GroupSetup setup : setups) {
                if (!setup.isPgjdbc()) {
                    db.startControllers(setup);
                }
            }
            return db;
        } catch (Exception | Error e) {
            db.close();
            throw e;
        }
    }

    private void startControllers(GroupSetup setup) throws Exception {
        List<Controller> started = new ArrayList<>();
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
                        0,
                        firstPort == null ? List.of() : List.of("127.0.0.1:" + firstPort),
                        2000,
                        GroupConfig.WhenAlone.START);
            }
            Path dataDir = Files.createTempDirectory("raidb-bench-group");
            dataDirs.add(dataDir);
            Controller c = Controller.start(
                    BenchDatabase.configuration(backendsOf(i), dataDir, RecoveryLogSettings.DEFAULT, group));
            started.add(c);
            if (firstPort == null && setup.grouped()) {
                firstPort = c.group(BenchDatabase.NAME).groupPort();
            }
        }
        // Registered before waiting, so that close() stops them if the group never forms.
        controllers.put(setup, started);
        if (setup.grouped()) {
            awaitView(setup, started);
        }
    }

    /** Until every member sees all: a measurement with a member still joining would measure the join. */
    private static void awaitView(GroupSetup setup, List<Controller> members) throws InterruptedException {
        long deadline = System.nanoTime() + VIEW_TIMEOUT.toNanos();
        for (Controller c : members) {
            ActiveReplication group = c.group(BenchDatabase.NAME);
            while (group.viewMembers().size() != setup.controllers()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(setup.title() + ": a member sees " + group.viewMembers()
                            + " after " + VIEW_TIMEOUT.toSeconds() + " s, not " + setup.controllers()
                            + " members");
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
            for (List<Controller> cs : controllers.values()) {
                // The joiners first: the first member leaves last, as an operator would stop them.
                for (int i = cs.size() - 1; i >= 0; i--) {
                    cs.get(i).close();
                }
            }
        } finally {
            try {
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
