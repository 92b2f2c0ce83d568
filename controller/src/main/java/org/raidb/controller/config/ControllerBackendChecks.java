package org.raidb.controller.config;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.raidb.controller.config.ElementLocations.Located;
import org.raidb.controller.jdbcurl.DriverFamily;
import org.raidb.driver.HostAndPort;
import org.raidb.driver.RaidbUrl;

/**
 * Backends that are controllers ({@code jdbc:raidb:} URLs): the URL must parse, and no virtual database
 * of this file may lead back to itself through this controller's own address (its {@code port} on this
 * machine), directly or through other virtual databases of the file. Cycles through other controllers
 * are refused when they connect (tree.ControllerChain); these are refused before anything starts.
 */
final class ControllerBackendChecks {

    private ControllerBackendChecks() {}

    static void check(RaidbConfig config, String source, ElementLocations locations, List<String> problems) {
        int port = config.controller().port();
        // Edges between virtual databases of this file through this controller's own address, in file order.
        Map<String, List<String>> edges = new LinkedHashMap<>();
        Map<String, String> firstBackendOfEdge = new LinkedHashMap<>();
        for (VirtualDatabaseConfig vdb : config.virtualDatabases()) {
            edges.put(vdb.name(), new ArrayList<>());
            for (BackendConfig b : vdb.backends()) {
                if (DriverFamily.of(b.url()).orElse(null) != DriverFamily.RAIDB) {
                    continue;
                }
                RaidbUrl url;
                try {
                    url = RaidbUrl.parse(b.url());
                } catch (SQLException e) {
                    problems.add(at(source, locations, vdb, b)
                            .describe("<backend name=\"" + b.name() + "\"> url: " + e.getMessage()));
                    continue;
                }
                if (port != 0 && url.controllers().stream().anyMatch(c -> isThisController(c, config, port))) {
                    edges.get(vdb.name()).add(url.virtualDatabase());
                    firstBackendOfEdge.putIfAbsent(vdb.name() + "->" + url.virtualDatabase(), b.name());
                }
            }
        }
        for (VirtualDatabaseConfig vdb : config.virtualDatabases()) {
            cycleFrom(vdb.name(), edges).ifPresent(cycle -> {
                String backend = firstBackendOfEdge.get(cycle.get(0) + "->" + cycle.get(1));
                BackendConfig b = vdb.backends().stream()
                        .filter(x -> x.name().equals(backend))
                        .findFirst()
                        .orElseThrow();
                problems.add(at(source, locations, vdb, b)
                        .describe("<backend name=\"" + b.name() + "\"> url " + b.url() + " leads back to virtual"
                                + " database " + vdb.name() + " of this controller (port " + port + "): a cycle "
                                + String.join(" -> ", cycle) + ". A backend must be another controller's virtual"
                                + " database, or another virtual database of this one that does not lead back"));
            });
        }
    }

    /** The shortest cycle from {@code start} back to it, as the names along it (start first and last). */
    private static Optional<List<String>> cycleFrom(String start, Map<String, List<String>> edges) {
        Map<String, String> parent = new LinkedHashMap<>();
        List<String> frontier = new ArrayList<>(List.of(start));
        while (!frontier.isEmpty()) {
            List<String> next = new ArrayList<>();
            for (String from : frontier) {
                for (String to : edges.getOrDefault(from, List.of())) {
                    if (to.equals(start)) {
                        List<String> path = new ArrayList<>(List.of(to));
                        for (String at = from; ; at = parent.get(at)) {
                            path.add(0, at);
                            if (at.equals(start)) {
                                break;
                            }
                        }
                        return Optional.of(path);
                    }
                    if (!parent.containsKey(to) && edges.containsKey(to)) {
                        parent.put(to, from);
                        next.add(to);
                    }
                }
            }
            frontier = next;
        }
        return Optional.empty();
    }

    /** Whether {@code c} is this controller: its port, on a name of this machine or the configured host. */
    private static boolean isThisController(HostAndPort c, RaidbConfig config, int port) {
        if (c.port() != port) {
            return false;
        }
        String host = c.host().toLowerCase(Locale.ROOT);
        if (host.equals(config.controller().host().toLowerCase(Locale.ROOT)) || host.equals("localhost")) {
            return true;
        }
        try {
            InetAddress a = InetAddress.getByName(c.host());
            return a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (UnknownHostException | SocketException e) {
            return false; // a name that does not resolve here is not this machine
        }
    }

    private static SourcePosition at(
            String source, ElementLocations locations, VirtualDatabaseConfig vdb, BackendConfig b) {
        Located vdbElement = locations
                .firstAfter(null, "virtualDatabase", "name", vdb.name())
                .orElse(null);
        Located at =
                locations.firstAfter(vdbElement, "backend", "name", b.name()).orElse(vdbElement);
        return at == null ? new SourcePosition(source, -1, -1) : new SourcePosition(source, at.line(), at.column());
    }
}
