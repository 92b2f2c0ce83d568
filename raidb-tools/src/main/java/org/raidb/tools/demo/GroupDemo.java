package org.raidb.tools.demo;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.raidb.controller.Controller;
import org.raidb.embedded.EmbeddedPostgresServer;

/**
 * The demo with a controller group: several controllers serve one virtual database, each with its own
 * backends. The workload runs through the first; every backend of every controller ends identical.
 * Then the first controller stops, as if it had failed: the client goes on through another, and the
 * survivors' backends stay identical. Last, the first controller starts again while a client writes
 * through another: it catches up from the group before it serves, and every backend is identical again.
 */
public final class GroupDemo {
    private GroupDemo() {}

    /**
     * Runs the demo on running members; returns whether the replicas were identical each time.
     *
     * @param controllers the running members, in the order the client URL lists them
     * @param backendsOf each member's backends
     * @param restartFirst starts the first member again, on its configuration (its backends as they were)
     */
    public static boolean run(
            List<Controller> controllers,
            Function<Controller, List<EmbeddedPostgresServer>> backendsOf,
            Callable<Controller> restartFirst,
            String vdb,
            String user,
            String password,
            PrintStream out)
            throws Exception {
        StringBuilder hosts = new StringBuilder();
        for (Controller c : controllers) {
            hosts.append(hosts.length() == 0 ? "" : ",").append("127.0.0.1:").append(c.port());
        }
        String url = "jdbc:raidb://" + hosts + "/" + vdb;
        for (int i = 0; i < controllers.size(); i++) {
            out.println("Controller " + (i + 1) + " serving 127.0.0.1:"
                    + controllers.get(i).port() + " with backends " + names(backendsOf.apply(controllers.get(i))));
        }
        out.println("Group view: " + controllers.get(0).group(vdb).viewMembers());
        out.println("Client URL " + url + " (the driver takes the first controller that answers)\n");
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            DemoWorkload.run(c, out);
        }
        List<EmbeddedPostgresServer> all = new ArrayList<>();
        controllers.forEach(c -> all.addAll(backendsOf.apply(c)));
        out.println("\nEvery backend of every controller, read directly with pgjdbc:");
        boolean identical = report(all, out);

        Controller first = controllers.get(0);
        out.println("\nStopping controller 1, as if it had failed...");
        first.close();
        List<EmbeddedPostgresServer> survivors = new ArrayList<>();
        controllers.subList(1, controllers.size()).forEach(c -> survivors.addAll(backendsOf.apply(c)));
        out.println("Group view now: " + controllers.get(1).group(vdb).viewMembers());
        try (Connection c = DriverManager.getConnection(url, user, password);
                Statement st = c.createStatement()) {
            int repriced = st.executeUpdate("UPDATE products SET price = price + 1 WHERE id <= 10");
            out.println("The client goes on through controller 2: " + repriced + " products repriced");
        }
        out.println("\nThe backends of the controllers still running:");
        identical &= report(survivors, out);

        out.println("\nStarting controller 1 again while a client writes through controller 2...");
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong writes = new AtomicLong();
        String second = "jdbc:raidb://127.0.0.1:" + controllers.get(1).port() + "/" + vdb;
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try (Connection c = DriverManager.getConnection(second, user, password);
                    Statement st = c.createStatement()) {
                for (int n = 0; !done.get(); n++) {
                    st.executeUpdate("UPDATE products SET price = price + 1 WHERE id = " + (1 + n % 100));
                    writes.incrementAndGet();
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        try (Controller again = restartFirst.call()) {
            done.set(true);
            writer.join();
            out.println("Controller 1 caught up from the group and serves 127.0.0.1:" + again.port() + " again; "
                    + writes.get() + " writes went through controller 2 meanwhile");
            try (Connection c = DriverManager.getConnection(
                            "jdbc:raidb://127.0.0.1:" + again.port() + "/" + vdb, user, password);
                    Statement st = c.createStatement()) {
                int repriced = st.executeUpdate("UPDATE products SET price = price - 1 WHERE id <= 10");
                out.println("A client of controller 1 writes again: " + repriced + " products repriced");
            }
            out.println("\nEvery backend of every controller:");
            return report(all, out) && identical;
        }
    }

    private static boolean report(List<EmbeddedPostgresServer> servers, PrintStream out) throws SQLException {
        List<ReplicaReport.Replica> replicas = new ArrayList<>();
        try {
            for (EmbeddedPostgresServer s : servers) {
                replicas.add(new ReplicaReport.Replica(s.name(), s.connect()));
            }
            return ReplicaReport.print(replicas, out);
        } finally {
            for (ReplicaReport.Replica r : replicas) {
                r.connection().close();
            }
        }
    }

    private static String names(List<EmbeddedPostgresServer> servers) {
        return String.join(
                ", ", servers.stream().map(EmbeddedPostgresServer::name).toList());
    }
}
