package org.raidb.tools.console;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;

/** Runs parsed console commands against the admin API and prints their results for people. */
final class ConsoleRunner {
    private final AdminClient client;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Duration pollInterval;
    private final ProgressPrinter progress;

    /**
     * @param err where failures go: scripts using {@code -c} keep them apart from results
     * @param pollInterval how often a followed operation is asked for
     * @param progress how its line is shown: it writes to {@code out}
     */
    ConsoleRunner(
            AdminClient client, PrintWriter out, PrintWriter err, Duration pollInterval, ProgressPrinter progress) {
        this.client = client;
        this.out = out;
        this.err = err;
        this.pollInterval = pollInterval;
        this.progress = progress;
    }

    /** Runs one command line; prints the result or one line saying what went wrong; returns a {@link ConsoleExit}. */
    int run(String line) {
        try {
            execute(ConsoleGrammar.parse(line));
            return ConsoleExit.OK;
        } catch (ConsoleUsageException e) {
            err.println(e.getMessage());
            return ConsoleExit.USAGE;
        } catch (AdminCallException e) {
            err.println("error: " + e.getMessage());
            return e.isConnectionProblem() ? ConsoleExit.NO_CONNECTION : ConsoleExit.COMMAND_FAILED;
        } catch (OperationFailedException e) {
            err.println("error: " + e.getMessage());
            return ConsoleExit.COMMAND_FAILED;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Exit is the caller's business (the interactive loop); here it only needs to be a valid command. */
    void execute(ConsoleAction action) throws AdminCallException, ConsoleUsageException, OperationFailedException {
        // Java 17: no pattern matching in switch yet.
        if (action instanceof ConsoleAction.ShowVirtualDatabases) {
            showVirtualDatabases();
        } else if (action instanceof ConsoleAction.ShowBackends s) {
            showBackends(s.virtualDatabase());
        } else if (action instanceof ConsoleAction.ShowCheckpoints s) {
            showCheckpoints(s.virtualDatabase());
        } else if (action instanceof ConsoleAction.ShowDumps s) {
            showDumps(s.virtualDatabase());
        } else if (action instanceof ConsoleAction.ShowControllers s) {
            showControllers(s.virtualDatabase());
        } else if (action instanceof ConsoleAction.ShowOperations) {
            showOperations();
        } else if (action instanceof ConsoleAction.WatchOperation w) {
            watch(client.get("/api/operations/" + w.id()));
        } else if (action instanceof ConsoleAction.Disable d) {
            disable(d);
        } else if (action instanceof ConsoleAction.Enable e) {
            follow(client.post(
                    backendPath(e.backend(), e.virtualDatabase(), "enable") + "/enable",
                    e.force() ? Map.of("force", "true") : Map.of()));
        } else if (action instanceof ConsoleAction.Backup b) {
            follow(client.post(
                    backendPath(b.backend(), b.virtualDatabase(), "backup") + "/backup",
                    b.dump() == null ? Map.of() : Map.of("as", b.dump())));
        } else if (action instanceof ConsoleAction.Restore r) {
            follow(client.post(
                    backendPath(r.backend(), r.virtualDatabase(), "restore") + "/restore", Map.of("dump", r.dump())));
        } else if (action instanceof ConsoleAction.AddBackend a) {
            addBackend(a);
        } else if (action instanceof ConsoleAction.Checkpoint c) {
            checkpoint(c);
        } else if (action instanceof ConsoleAction.PurgeLog p) {
            String vdb = virtualDatabase(p.virtualDatabase(), "purge log before " + p.beforeCheckpoint());
            // A purge answers when it is done: millions of entries, paced while clients write, take minutes.
            out.println(client.post(
                            vdbPath(vdb) + "/purge",
                            Map.of("before", p.beforeCheckpoint()),
                            java.time.Duration.ofHours(1))
                    .path("message")
                    .asText());
        } else if (action instanceof ConsoleAction.Verify v) {
            verify(v);
        } else if (action instanceof ConsoleAction.Shutdown) {
            out.println(client.post("/api/shutdown").path("message").asText());
        } else if (action instanceof ConsoleAction.Help h) {
            out.print(HelpText.of(h.topic()));
        }
    }

    private void showVirtualDatabases() throws AdminCallException {
        TextTable table =
                new TextTable("NAME", "LEVEL", "SCHEDULER", "COMPLETION", "READ POLICY", "BACKENDS", "WAITING WRITES");
        for (JsonNode v : client.get("/api/virtualdatabases").path("virtualDatabases")) {
            table.row(
                    v.path("name").asText(),
                    v.path("level").asText(),
                    v.path("scheduler").asText(),
                    v.path("completion").asText(),
                    v.path("readPolicy").asText(),
                    v.path("backendsEnabled").asInt() + "/"
                            + v.path("backendsTotal").asInt() + " enabled",
                    v.path("waitingWrites").asInt());
        }
        out.print(table.render());
    }

    private void showBackends(String vdb) throws AdminCallException {
        TextTable table = new TextTable(
                "VDB",
                "BACKEND",
                "STATE",
                "PENDING",
                "SERVED",
                "WEIGHT",
                "LAST CHECKPOINT",
                "URL",
                "TABLES",
                "DISABLED TABLES",
                "DISABLED BECAUSE");
        for (String name : namedOrAll(vdb)) {
            for (JsonNode b : client.get(vdbPath(name) + "/backends").path("backends")) {
                table.row(
                        name,
                        b.path("name").asText(),
                        b.path("state").asText(),
                        b.path("pendingRequests").asInt(),
                        b.path("requestsServed").asLong(),
                        b.path("weight").asInt(),
                        textOrNull(b, "lastCheckpoint"),
                        b.path("url").asText(),
                        names(b.path("tables")),
                        names(b.path("disabledTables")),
                        textOrNull(b, "disabledReason"));
            }
        }
        out.print(table.render());
    }

    /** A JSON array of names as "a,b,c", or null (shown as "-") when empty. */
    private static String names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(n -> names.add(n.asText()));
        return names.isEmpty() ? null : String.join(",", names);
    }

    private void showCheckpoints(String vdb) throws AdminCallException {
        TextTable table = new TextTable("VDB", "CHECKPOINT", "WRITE POSITION", "CREATED");
        for (String name : namedOrAll(vdb)) {
            for (JsonNode c : client.get(vdbPath(name) + "/checkpoints").path("checkpoints")) {
                table.row(name, textOrNull(c, "name"), textOrNull(c, "writePosition"), textOrNull(c, "created"));
            }
        }
        out.print(table.isEmpty() ? "no checkpoints\n" : table.render());
    }

    /** The controller group of each virtual database that has one: members, view, backends, writes applied. */
    private void showControllers(String vdb) throws AdminCallException {
        TextTable table = new TextTable("VDB", "GROUP", "VIEW", "CONTROLLER", "BACKENDS", "DELIVERED", "APPLIED");
        for (String name : namedOrAll(vdb)) {
            JsonNode g;
            try {
                g = client.get(vdbPath(name) + "/controllers");
            } catch (AdminCallException e) {
                if (e.status() == 404 && vdb == null) {
                    continue; // a virtual database this controller serves alone
                }
                throw e;
            }
            for (JsonNode m : g.path("members")) {
                boolean answered = m.path("answered").asBoolean();
                table.row(
                        name,
                        textOrNull(g, "group"),
                        textOrNull(g, "viewId"),
                        m.path("name").asText() + (m.path("self").asBoolean() ? " (this one)" : ""),
                        answered ? names(m.path("backends")) : "did not answer",
                        answered ? m.path("delivered").asText() : null,
                        answered ? m.path("applied").asText() : null);
            }
        }
        out.print(table.isEmpty() ? "no controller group\n" : table.render());
    }

    private void showDumps(String vdb) throws AdminCallException {
        TextTable table = new TextTable("VDB", "DUMP", "BACKEND", "CHECKPOINT", "FORMAT", "SIZE", "CREATED", "PATH");
        for (String name : namedOrAll(vdb)) {
            for (JsonNode d : client.get(vdbPath(name) + "/dumps").path("dumps")) {
                table.row(
                        name,
                        textOrNull(d, "name"),
                        textOrNull(d, "backend"),
                        textOrNull(d, "checkpoint"),
                        textOrNull(d, "format"),
                        textOrNull(d, "sizeBytes"),
                        textOrNull(d, "created"),
                        textOrNull(d, "path"));
            }
        }
        out.print(table.isEmpty() ? "no dumps\n" : table.render());
    }

    private void showOperations() throws AdminCallException {
        TextTable table = new TextTable("ID", "KIND", "VDB", "TARGET", "STATE", "PROGRESS", "RATE", "TIME LEFT");
        for (JsonNode op : client.get("/api/operations").path("operations")) {
            table.row(
                    op.path("id").asLong(),
                    op.path("kind").asText(),
                    op.path("virtualDatabase").asText(),
                    textOrNull(op, "target"),
                    op.path("state").asText(),
                    OperationLine.done(op),
                    op.hasNonNull("ratePerSecond")
                            ? Math.round(op.get("ratePerSecond").asDouble()) + "/s"
                            : null,
                    op.hasNonNull("secondsLeft")
                            ? OperationLine.duration(op.get("secondsLeft").asLong())
                            : null);
        }
        out.print(table.isEmpty() ? "no operations\n" : table.render());
    }

    /**
     * Shows one operation's line until it ends, starting from {@code op} as last seen; returns it as last seen, which
     * for an operation that ended is the controller's answer after the end: its counts are the final ones. An
     * interrupt (Ctrl-C) stops watching only: the operation runs in the controller.
     */
    private JsonNode watch(JsonNode op) throws AdminCallException {
        long id = op.path("id").asLong();
        while (true) {
            if (!"running".equals(op.path("state").asText())) {
                progress.ended(OperationLine.of(op));
                return op;
            }
            progress.running(OperationLine.of(op));
            try {
                Thread.sleep(pollInterval.toMillis());
                op = client.get("/api/operations/" + id);
            } catch (InterruptedException e) {
                return stoppedWatching(op);
            } catch (AdminCallException e) {
                // Ctrl-C during the call itself reaches us as a failed call with the interrupt flag set.
                if (!Thread.currentThread().isInterrupted()) {
                    throw e;
                }
                return stoppedWatching(op);
            }
        }
    }

    private JsonNode stoppedWatching(JsonNode op) {
        long id = op.path("id").asLong();
        progress.stopped();
        out.println("stopped watching; operation #" + id + " goes on ('watch operation " + id + "' shows it again)");
        return op;
    }

    /** Watches the operation a 202 answer started until it ends: its failure is the command's. */
    private void follow(JsonNode started) throws AdminCallException, OperationFailedException {
        out.println(started.path("message").asText());
        JsonNode op = watch(started.path("operation"));
        if ("failed".equals(op.path("state").asText())) {
            throw new OperationFailedException(
                    op.path("kind").asText() + " of " + op.path("target").asText() + " failed: "
                            + op.path("message").asText("see the controller log"));
        }
    }

    private void disable(ConsoleAction.Disable d) throws AdminCallException, ConsoleUsageException {
        JsonNode answer = client.post(backendPath(d.backend(), d.virtualDatabase(), "disable") + "/disable");
        out.println(answer.path("message").asText());
        String checkpoint = textOrNull(answer.path("backend"), "lastCheckpoint");
        if (checkpoint != null) {
            out.println("last checkpoint " + checkpoint + ": 'enable " + d.backend() + "' replays the log from there");
        }
    }

    private void addBackend(ConsoleAction.AddBackend a)
            throws AdminCallException, ConsoleUsageException, OperationFailedException {
        String vdb = virtualDatabase(a.virtualDatabase(), "add backend " + a.name() + " ...");
        Map<String, String> parameters = new LinkedHashMap<>(a.settings());
        parameters.put("name", a.name());
        follow(client.post(vdbPath(vdb) + "/backends", parameters));
    }

    /** Follows the verify, then prints its table; differences left unrepaired make the command fail. */
    private void verify(ConsoleAction.Verify v)
            throws AdminCallException, ConsoleUsageException, OperationFailedException {
        String vdb = virtualDatabase(v.virtualDatabase(), "verify");
        follow(client.post(vdbPath(vdb) + "/verify", v.repair() ? Map.of("repair", "true") : Map.of()));
        JsonNode report = client.get(vdbPath(vdb) + "/verify");
        TextTable table = new TextTable("TABLE", "STATE", "ROWS:CHECKSUM BY BACKEND", "DIFFERS ON", "REPAIRED", "NOTE");
        List<String> unrepaired = new ArrayList<>();
        for (JsonNode t : report.path("tables")) {
            List<String> sums = new ArrayList<>();
            t.path("checksums")
                    .fields()
                    .forEachRemaining(
                            e -> sums.add(e.getKey() + "=" + e.getValue().asText()));
            table.row(
                    t.path("table").asText(),
                    t.path("state").asText(),
                    String.join(" ", sums),
                    names(t.path("differing")),
                    names(t.path("repaired")),
                    textOrNull(t, "note"));
            if ("differing".equals(t.path("state").asText())
                    && t.path("repaired").size() < t.path("differing").size()) {
                unrepaired.add(t.path("table").asText() + " on " + names(t.path("differing")));
            }
        }
        out.print(table.isEmpty() ? "no tables\n" : table.render());
        report.path("notes").forEach(n -> out.println("note: " + n.asText()));
        if (!unrepaired.isEmpty()) {
            throw new OperationFailedException("tables differ: " + String.join("; ", unrepaired)
                    + (v.repair() ? "" : " ('verify " + vdb + " --repair' copies the majority's copy over them)"));
        }
    }

    private void checkpoint(ConsoleAction.Checkpoint c) throws AdminCallException, ConsoleUsageException {
        String vdb = virtualDatabase(c.virtualDatabase(), c.name() == null ? "checkpoint" : "checkpoint " + c.name());
        JsonNode cp = client.post(vdbPath(vdb) + "/checkpoints", c.name() == null ? Map.of() : Map.of("name", c.name()))
                .path("checkpoint");
        out.println("checkpoint " + cp.path("name").asText() + " recorded in " + vdb + " at write position "
                + cp.path("writePosition").asText());
    }

    private List<String> namedOrAll(String vdb) throws AdminCallException {
        return vdb != null ? List.of(vdb) : virtualDatabaseNames();
    }

    List<String> virtualDatabaseNames() throws AdminCallException {
        List<String> names = new ArrayList<>();
        client.get("/api/virtualdatabases")
                .path("virtualDatabases")
                .forEach(v -> names.add(v.path("name").asText()));
        return names;
    }

    /** The path of a backend; {@code command} is the command's first word, for the hint when VDB is needed. */
    private String backendPath(String backend, String vdb, String command)
            throws AdminCallException, ConsoleUsageException {
        return vdbPath(virtualDatabase(vdb, command + " " + backend)) + "/backends/" + AdminClient.segment(backend);
    }

    /** The virtual database named, else the only one administered; {@code command} is the hint when VDB is needed. */
    private String virtualDatabase(String named, String command) throws AdminCallException, ConsoleUsageException {
        if (named != null) {
            return named;
        }
        List<String> names = virtualDatabaseNames();
        if (names.size() != 1) {
            throw new ConsoleUsageException(
                    "which virtual database? you administer " + names + ": " + command + " in VDB");
        }
        return names.get(0);
    }

    private static String vdbPath(String vdb) {
        return "/api/virtualdatabases/" + AdminClient.segment(vdb);
    }

    private static String textOrNull(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }
}
