package org.raidb.tools.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.raidb.controller.Controller;
import org.raidb.controller.cli.RaidbVersion;
import org.raidb.controller.config.AuthenticationConfig;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.BackupSettings;
import org.raidb.controller.config.ConfigDefaults;
import org.raidb.controller.config.ControllerSettings;
import org.raidb.controller.config.DeterminismConfig;
import org.raidb.controller.config.GroupConfig;
import org.raidb.controller.config.HealthSettings;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.RecoveryLogSettings;
import org.raidb.controller.config.ReplicationConfig;
import org.raidb.controller.config.SchedulerConfig;
import org.raidb.controller.config.UserCredentials;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.raidb.embedded.EmbeddedPostgresCluster;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.tools.demo.DemoWorkload;
import org.raidb.tools.demo.ReplicaReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code raidb demo}: the product's main job on an embedded default. Starts real PostgreSQL servers
 * and a controller in this process, runs a workload through the RAIDb driver, shows that every
 * replica holds the same data, then keeps serving until Ctrl-C.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        versionProvider = RaidbVersion.class,
        description = "Start embedded PostgreSQL backends and a controller, run a workload through the driver and "
                + "compare the replicas, then serve until Ctrl-C.")
final class DemoCommand implements Callable<Integer> {
    static final String VIRTUAL_DATABASE = "shop";
    static final String USER = "app";
    static final String PASSWORD = "app";

    @Option(
            names = "--backends",
            defaultValue = "3",
            description = "Number of PostgreSQL backends (default ${DEFAULT-VALUE}).")
    int backends;

    @Option(
            names = "--port",
            defaultValue = "25322",
            description = "Client port of the controller (default ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--exit", description = "Exit after the replica report instead of serving until Ctrl-C.")
    boolean exitAfterReport;

    @Option(
            names = "--controllers",
            defaultValue = "1",
            description = "Number of controllers sharing the virtual database as a controller group (default"
                    + " ${DEFAULT-VALUE}); the backends are dealt out among them. With 2 or more the demo then stops"
                    + " the first controller and the client goes on through another.")
    int controllers;

    @Override
    public Integer call() throws Exception {
        if (backends < 1 || backends > 9) {
            throw new picocli.CommandLine.ParameterException(
                    new picocli.CommandLine(this), "--backends must be between 1 and 9");
        }
        if (controllers < 1 || controllers > 3 || controllers > backends) {
            throw new picocli.CommandLine.ParameterException(
                    new picocli.CommandLine(this), "--controllers must be between 1 and 3, and at most --backends");
        }
        PrintStream out = System.out;
        if (controllers > 1) {
            return groupDemo(out);
        }
        out.println("Starting " + backends + " embedded PostgreSQL servers...");
        EmbeddedPostgresCluster cluster = EmbeddedPostgresCluster.start(backends, VIRTUAL_DATABASE);
        Controller controller;
        try {
            controller = Controller.start(configuration(cluster, Files.createTempDirectory("raidb-demo")));
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        Runnable stopAll = () -> {
            controller.close();
            cluster.close();
        };
        // On Ctrl-C only the controller is ours to stop: the cluster has its own shutdown hook.
        Thread hook = new Thread(controller::close, "raidb-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        String url = "jdbc:raidb://127.0.0.1:" + controller.port() + "/" + VIRTUAL_DATABASE;
        for (EmbeddedPostgresServer s : cluster.servers()) {
            out.println("  backend " + s.name() + ": " + s.jdbcUrl());
        }
        out.println("Controller serving " + url + "\n");

        try (Connection c = DriverManager.getConnection(url, USER, PASSWORD)) {
            DemoWorkload.run(c, out);
        }
        out.println("\nEach backend, read directly with pgjdbc (row count and checksum per table):");
        boolean identical = report(cluster, out);

        if (exitAfterReport) {
            Runtime.getRuntime().removeShutdownHook(hook);
            stopAll.run();
            return identical ? 0 : RaidbCommand.EXIT_FAILURE;
        }
        out.println("\nThe controller keeps running. Connect with any JDBC tool:");
        out.println("  URL      " + url);
        out.println("  user     " + USER + " / password " + PASSWORD);
        out.println("  driver   driver/target/raidb-driver.jar (org.raidb.driver.Driver)");
        out.println(
                "Administer it: bin/raidb console --port " + controller.adminPort() + " --user admin --password admin");
        out.println("Press Ctrl-C to stop the controller and the embedded servers.");
        controller.awaitTermination();
        return identical ? 0 : RaidbCommand.EXIT_FAILURE;
    }

    /** Several controllers as one group, each with every {@code controllers}-th server as its backends. */
    private int groupDemo(PrintStream out) throws Exception {
        out.println("Starting " + backends + " embedded PostgreSQL servers and " + controllers + " controllers...");
        EmbeddedPostgresCluster cluster = EmbeddedPostgresCluster.start(backends, VIRTUAL_DATABASE);
        List<Controller> members = new ArrayList<>();
        java.util.Map<Controller, List<EmbeddedPostgresServer>> backendsOf = new java.util.HashMap<>();
        Path firstData = Files.createTempDirectory("raidb-demo");
        try {
            for (int i = 0; i < controllers; i++) {
                List<EmbeddedPostgresServer> own = new ArrayList<>();
                for (int s = i; s < backends; s += controllers) {
                    own.add(cluster.servers().get(s));
                }
                Integer firstPort =
                        i == 0 ? null : members.get(0).group(VIRTUAL_DATABASE).groupPort();
                RaidbConfig config = configuration(
                        own,
                        i == 0 ? firstData : Files.createTempDirectory("raidb-demo"),
                        i == 0 ? port : 0,
                        firstPort);
                Controller c = Controller.start(config);
                members.add(c);
                backendsOf.put(c, own);
            }
            // Started again on its own data directory, contacting the second member this time.
            java.util.concurrent.Callable<Controller> restartFirst = () -> Controller.start(configuration(
                    backendsOf.get(members.get(0)),
                    firstData,
                    port,
                    members.get(1).group(VIRTUAL_DATABASE).groupPort()));
            boolean identical = org.raidb.tools.demo.GroupDemo.run(
                    members, backendsOf::get, restartFirst, VIRTUAL_DATABASE, USER, PASSWORD, out);
            return identical ? 0 : RaidbCommand.EXIT_FAILURE;
        } finally {
            for (int i = members.size() - 1; i >= 0; i--) {
                members.get(i).close();
            }
            cluster.close();
        }
    }

    private static boolean report(EmbeddedPostgresCluster cluster, PrintStream out) throws Exception {
        List<ReplicaReport.Replica> replicas = new ArrayList<>();
        try {
            for (EmbeddedPostgresServer s : cluster.servers()) {
                replicas.add(new ReplicaReport.Replica(s.name(), s.connect()));
            }
            return ReplicaReport.print(replicas, out);
        } finally {
            for (ReplicaReport.Replica r : replicas) {
                r.connection().close();
            }
        }
    }

    private RaidbConfig configuration(EmbeddedPostgresCluster cluster, Path dataDir) {
        return configuration(cluster.servers(), dataDir, port, null);
    }

    /**
     * @param firstMember the JGroups port of the group's first member; null: no group, or the first
     */
    private RaidbConfig configuration(
            List<EmbeddedPostgresServer> servers, Path dataDir, int clientPort, Integer firstMember) {
        List<BackendConfig> backendConfigs = new ArrayList<>();
        for (EmbeddedPostgresServer s : servers) {
            backendConfigs.add(new BackendConfig(
                    s.name(),
                    s.jdbcUrl(),
                    s.user(),
                    s.password(),
                    ConfigDefaults.BACKEND_WEIGHT,
                    ConfigDefaults.BACKEND_POOL_SIZE,
                    List.of()));
        }
        VirtualDatabaseConfig vdb = new VirtualDatabaseConfig(
                VIRTUAL_DATABASE,
                new AuthenticationConfig(
                        new UserCredentials("admin", "admin"), List.of(new UserCredentials(USER, PASSWORD))),
                backendConfigs,
                new ReplicationConfig("raidb1", "roundRobin", "all"),
                SchedulerConfig.DEFAULT,
                RecoveryLogSettings.DEFAULT,
                BackupSettings.DEFAULT,
                DeterminismConfig.DEFAULT,
                HealthSettings.DEFAULT,
                controllers == 1
                        ? null
                        : new GroupConfig(
                                "demo-group",
                                "tcp-loopback.xml",
                                GroupConfig.Completion.ALL,
                                "127.0.0.1",
                                0,
                                firstMember == null ? List.of() : List.of("127.0.0.1:" + firstMember),
                                2000,
                                GroupConfig.WhenAlone.START));
        ControllerSettings settings = new ControllerSettings(
                "127.0.0.1", clientPort, ConfigDefaults.ADMIN_HOST, 0, dataDir, ConfigDefaults.MAX_FRAME_BYTES, false);
        return new RaidbConfig(settings, List.of(vdb));
    }
}
