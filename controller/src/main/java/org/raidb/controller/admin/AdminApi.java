package org.raidb.controller.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.cache.CacheFigures;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.ResultCacheConfig;
import org.raidb.controller.group.GroupStatus;
import org.raidb.controller.group.ReplicationProtocol;
import org.raidb.controller.jdbcurl.BackendUrlPolicy;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.recovery.DisableCause;

/**
 * The endpoints of the admin API (docs/admin.md lists them). Each handler sees an authenticated admin and answers
 * only about the virtual databases that admin administers. The recovery operations are in {@link RecoveryApi}.
 */
final class AdminApi {
    private final Map<String, VirtualDatabase> virtualDatabases;
    private final RaidbConfig config;
    private final Operations operations;
    private final Runnable shutdown;
    private final Map<String, ReplicationProtocol> protocols;

    AdminApi(
            Map<String, VirtualDatabase> virtualDatabases,
            Map<String, ReplicationProtocol> protocols,
            RaidbConfig config,
            Operations operations,
            Runnable shutdown) {
        this.virtualDatabases = virtualDatabases;
        this.protocols = protocols;
        this.config = config;
        this.operations = operations;
        this.shutdown = shutdown;
    }

    List<Route> routes() {
        return List.of(
                new Route(
                        "GET",
                        "/api/virtualdatabases",
                        (admin, p) -> ApiResponse.ok(Map.of(
                                "virtualDatabases",
                                virtualDatabases.values().stream()
                                        .filter(v -> admin.administers(v.name()))
                                        .map(this::summary)
                                        .toList()))),
                new Route(
                        "GET",
                        "/api/virtualdatabases/{vdb}",
                        (admin, p) -> ApiResponse.ok(summary(administered(admin, p)))),
                new Route("GET", "/api/virtualdatabases/{vdb}/backends", (admin, p) -> {
                    VirtualDatabase vdb = administered(admin, p);
                    return ApiResponse.ok(Map.of(
                            "virtualDatabase",
                            vdb.name(),
                            "backends",
                            vdb.backends().stream().map(BackendSummary::of).toList()));
                }),
                new Route("POST", "/api/virtualdatabases/{vdb}/backends/{backend}/disable", this::disable),
                new Route("GET", "/api/virtualdatabases/{vdb}/controllers", this::controllers),
                new Route("GET", "/api/virtualdatabases/{vdb}/cache", this::cache),
                new Route(
                        "GET",
                        "/api/operations",
                        (admin, p) -> ApiResponse.ok(Map.of(
                                "operations",
                                operations.all().stream()
                                        .filter(o -> admin.administers(o.virtualDatabase()))
                                        .map(Operation::progress)
                                        .toList()))),
                new Route("GET", "/api/operations/{id}", this::operation),
                new Route("POST", "/api/shutdown", this::shutdown));
    }

    /** The controller group of the virtual database, as this controller sees it (404 without a group). */
    private ApiResponse controllers(AdminPrincipal admin, Map<String, String> p) {
        VirtualDatabase vdb = administered(admin, p);
        ReplicationProtocol protocol = protocols.get(vdb.name());
        GroupStatus status = protocol == null ? null : protocol.status();
        if (status == null) {
            throw AdminException.notFound("virtual database " + vdb.name()
                    + " has no controller group: this controller serves it alone (add <controllerGroup> to its"
                    + " configuration to share it)");
        }
        return ApiResponse.ok(status);
    }

    /** Every endpoint: the ones above and the recovery ones. */
    List<Route> allRoutes() {
        List<Route> all = new java.util.ArrayList<>(routes());
        all.addAll(new RecoveryApi(
                        virtualDatabases,
                        operations,
                        this::administered,
                        BackendUrlPolicy.adminApi(config.controller().allowH2BackendsFromAdmin()))
                .routes());
        return all;
    }

    private VirtualDatabaseSummary summary(VirtualDatabase vdb) {
        return VirtualDatabaseSummary.of(vdb, config.virtualDatabase(vdb.name()));
    }

    /**
     * 404 naming an unknown virtual database before 403, so that a typo is not reported as a permission problem.
     * The 404 lists only the admin's own virtual databases: the others are none of its business.
     */
    private VirtualDatabase administered(AdminPrincipal admin, Map<String, String> p) {
        String name = p.get("vdb");
        VirtualDatabase vdb = virtualDatabases.get(name);
        if (vdb == null) {
            throw AdminException.notFound("unknown virtual database '" + name + "': you administer "
                    + new java.util.TreeSet<>(admin.virtualDatabases()));
        }
        if (!admin.administers(name)) {
            throw AdminException.forbidden(
                    "user '" + admin.user() + "' is not the admin of virtual database '" + name + "'");
        }
        return vdb;
    }

    /** The result cache's counts; {@code enabled: false} when the virtual database has no {@code <resultCache>}. */
    private ApiResponse cache(AdminPrincipal admin, Map<String, String> p) {
        VirtualDatabase vdb = administered(admin, p);
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("virtualDatabase", vdb.name());
        CacheFigures f = vdb.resultCache().figures();
        body.put("enabled", f != null);
        if (f != null) {
            ResultCacheConfig c = vdb.resultCache().config();
            body.put("granularity", f.granularity());
            body.put("maxEntries", c.maxEntries());
            body.put("maxBytes", c.maxBytes());
            body.put("relaxedStalenessMillis", c.relaxedStalenessMillis());
            body.put("hits", f.hits());
            body.put("misses", f.misses());
            body.put("hitRatio", Math.round(f.hitRatio() * 10_000) / 10_000.0);
            body.put("staleHits", f.staleHits());
            body.put("bypassed", f.bypassed());
            body.put("evictions", f.evictions());
            body.put("invalidations", f.invalidations());
            body.put("entries", f.entries());
            body.put("weightBytes", f.bytes());
        }
        return ApiResponse.ok(body);
    }

    private ApiResponse disable(AdminPrincipal admin, Map<String, String> p) {
        VirtualDatabase vdb = administered(admin, p);
        String name = p.get("backend");
        DatabaseBackend backend = vdb.backends().stream()
                .filter(b -> b.name().equals(name))
                .findFirst()
                .orElseThrow(() -> AdminException.notFound("unknown backend '" + name + "' in virtual database '"
                        + vdb.name() + "': its backends are "
                        + vdb.backends().stream().map(DatabaseBackend::name).toList()));
        boolean wasEnabled = backend.isEnabled();
        java.util.concurrent.CompletableFuture<String> checkpoint =
                vdb.disableBackend(backend, DisableCause.administrator("disabled by administrator " + admin.user()));
        if (checkpoint != null) {
            // The answer names the checkpoint: wait until the backend's last writes are answered and it is recorded.
            checkpoint.join();
        }
        long enabled =
                vdb.backends().stream().filter(DatabaseBackend::isEnabled).count();
        String message = !wasEnabled
                ? "backend " + name + " was already disabled"
                : enabled == 0
                        ? "backend " + name + " disabled: virtual database " + vdb.name()
                                + " has no enabled backend left and refuses work until one is enabled"
                        : "backend " + name + " disabled; " + enabled + " backend(s) left enabled";
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("virtualDatabase", vdb.name());
        body.put("backend", BackendSummary.of(backend));
        body.put("backendsEnabled", enabled);
        body.put("refusesWork", enabled == 0);
        body.put("message", message);
        return ApiResponse.ok(body);
    }

    private ApiResponse operation(AdminPrincipal admin, Map<String, String> p) {
        String id = p.get("id");
        Operation op;
        try {
            op = operations.get(Long.parseLong(id)).orElse(null);
        } catch (NumberFormatException e) {
            op = null;
        }
        if (op == null || !admin.administers(op.virtualDatabase())) {
            throw AdminException.notFound("unknown operation '" + id + "': GET /api/operations lists them");
        }
        return ApiResponse.ok(op.progress());
    }

    /** Stopping the controller stops every virtual database, so only an admin of all of them may. */
    private ApiResponse shutdown(AdminPrincipal admin, Map<String, String> p) {
        if (!admin.virtualDatabases().containsAll(virtualDatabases.keySet())) {
            throw AdminException.forbidden(
                    "user '" + admin.user() + "' may not shut the controller down: only an admin of "
                            + "every virtual database it serves " + virtualDatabases.keySet() + " may");
        }
        return new ApiResponse(202, Map.of("message", "controller shutting down")).afterSending(shutdown);
    }
}
