package org.raidb.controller.console;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs parsed console commands against the admin API and prints their results for people. */
final class ConsoleRunner {
  private final AdminClient client;
  private final PrintWriter out;
  private final PrintWriter err;
  private final Duration pollInterval;

  /** @param err where failures go: scripts using {@code -c} keep them apart from results */
  ConsoleRunner(AdminClient client, PrintWriter out, PrintWriter err, Duration pollInterval) {
    this.client = client;
    this.out = out;
    this.err = err;
    this.pollInterval = pollInterval;
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
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** Exit is the caller's business (the interactive loop); here it only needs to be a valid command. */
  void execute(ConsoleAction action) throws AdminCallException, ConsoleUsageException {
    // Java 17: no pattern matching in switch yet.
    if (action instanceof ConsoleAction.ShowVirtualDatabases) {
      showVirtualDatabases();
    } else if (action instanceof ConsoleAction.ShowBackends s) {
      showBackends(s.virtualDatabase());
    } else if (action instanceof ConsoleAction.ShowCheckpoints s) {
      showCheckpoints(s.virtualDatabase());
    } else if (action instanceof ConsoleAction.ShowDumps s) {
      showDumps(s.virtualDatabase());
    } else if (action instanceof ConsoleAction.ShowOperations) {
      showOperations();
    } else if (action instanceof ConsoleAction.WatchOperation w) {
      watch(w.id());
    } else if (action instanceof ConsoleAction.Disable d) {
      disable(d);
    } else if (action instanceof ConsoleAction.Shutdown) {
      out.println(client.post("/api/shutdown").path("message").asText());
    } else if (action instanceof ConsoleAction.Help h) {
      out.print(HelpText.of(h.topic()));
    }
  }

  private void showVirtualDatabases() throws AdminCallException {
    TextTable table = new TextTable("NAME", "LEVEL", "SCHEDULER", "COMPLETION", "READ POLICY", "BACKENDS",
        "WAITING WRITES");
    for (JsonNode v : client.get("/api/virtualdatabases").path("virtualDatabases")) {
      table.row(v.path("name").asText(), v.path("level").asText(), v.path("scheduler").asText(),
          v.path("completion").asText(), v.path("readPolicy").asText(),
          v.path("backendsEnabled").asInt() + "/" + v.path("backendsTotal").asInt() + " enabled",
          v.path("waitingWrites").asInt());
    }
    out.print(table.render());
  }

  private void showBackends(String vdb) throws AdminCallException {
    TextTable table = new TextTable("VDB", "BACKEND", "STATE", "PENDING", "SERVED", "WEIGHT", "LAST CHECKPOINT", "URL",
        "DISABLED BECAUSE");
    for (String name : namedOrAll(vdb)) {
      for (JsonNode b : client.get(vdbPath(name) + "/backends").path("backends")) {
        table.row(name, b.path("name").asText(), b.path("state").asText(), b.path("pendingRequests").asInt(),
            b.path("requestsServed").asLong(), b.path("weight").asInt(), textOrNull(b, "lastCheckpoint"),
            b.path("url").asText(), textOrNull(b, "disabledReason"));
      }
    }
    out.print(table.render());
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

  private void showDumps(String vdb) throws AdminCallException {
    TextTable table = new TextTable("VDB", "DUMP", "CHECKPOINT", "FORMAT", "SIZE", "CREATED", "PATH");
    for (String name : namedOrAll(vdb)) {
      for (JsonNode d : client.get(vdbPath(name) + "/dumps").path("dumps")) {
        table.row(name, textOrNull(d, "name"), textOrNull(d, "checkpoint"), textOrNull(d, "format"),
            textOrNull(d, "sizeBytes"), textOrNull(d, "created"), textOrNull(d, "path"));
      }
    }
    out.print(table.isEmpty() ? "no dumps\n" : table.render());
  }

  private void showOperations() throws AdminCallException {
    TextTable table = new TextTable("ID", "KIND", "VDB", "TARGET", "STATE", "PROGRESS", "RATE", "TIME LEFT");
    for (JsonNode op : client.get("/api/operations").path("operations")) {
      table.row(op.path("id").asLong(), op.path("kind").asText(), op.path("virtualDatabase").asText(),
          textOrNull(op, "target"), op.path("state").asText(), ProgressLine.done(op),
          op.hasNonNull("ratePerSecond") ? Math.round(op.get("ratePerSecond").asDouble()) + "/s" : null,
          op.hasNonNull("secondsLeft") ? ProgressLine.duration(op.get("secondsLeft").asLong()) : null);
    }
    out.print(table.isEmpty() ? "no operations\n" : table.render());
  }

  /** Redraws one line in place until the operation ends; an interrupt (Ctrl-C) stops watching only. */
  private void watch(long id) throws AdminCallException {
    int previousLength = 0;
    while (true) {
      JsonNode op = client.get("/api/operations/" + id);
      String line = ProgressLine.of(op);
      out.print("\r" + line + " ".repeat(Math.max(0, previousLength - line.length())));
      out.flush();
      previousLength = line.length();
      if (!"running".equals(op.path("state").asText())) {
        out.println();
        return;
      }
      try {
        Thread.sleep(pollInterval.toMillis());
      } catch (InterruptedException e) {
        out.println();
        out.println("stopped watching; operation #" + id + " goes on");
        return;
      }
    }
  }

  private void disable(ConsoleAction.Disable d) throws AdminCallException, ConsoleUsageException {
    String vdb = d.virtualDatabase() != null ? d.virtualDatabase() : onlyVirtualDatabase("disable " + d.backend());
    JsonNode answer = client.post(vdbPath(vdb) + "/backends/" + AdminClient.segment(d.backend()) + "/disable");
    out.println(answer.path("message").asText());
  }

  private List<String> namedOrAll(String vdb) throws AdminCallException {
    return vdb != null ? List.of(vdb) : virtualDatabaseNames();
  }

  List<String> virtualDatabaseNames() throws AdminCallException {
    List<String> names = new ArrayList<>();
    client.get("/api/virtualdatabases").path("virtualDatabases").forEach(v -> names.add(v.path("name").asText()));
    return names;
  }

  private String onlyVirtualDatabase(String command) throws AdminCallException, ConsoleUsageException {
    List<String> names = virtualDatabaseNames();
    if (names.size() != 1) {
      throw new ConsoleUsageException("which virtual database? you administer " + names + ": " + command + " in VDB");
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
