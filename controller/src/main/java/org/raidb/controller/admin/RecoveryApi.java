package org.raidb.controller.admin;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.ConfigDefaults;
import org.raidb.controller.jdbcurl.BackendUrlPolicy;
import org.raidb.controller.jdbcurl.JdbcUrl;
import org.raidb.controller.jdbcurl.RefusedUrlException;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.recovery.RecoveryTask;
import org.raidb.controller.vdb.VirtualDatabase;
import org.raidb.controller.verify.VerifyReport;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.Checkpoint;
import org.raidb.recovery.DumpRecord;

/**
 * The admin API's recovery endpoints: checkpoints and dumps, and the long operations (enable,
 * backup, restore, add backend, verify), which are checked at once (a bad request is refused with its
 * reason) and then run in the background as an {@link Operation} the console can watch.
 */
final class RecoveryApi {
    /** What add backend takes besides the path's vdb: a driver option passed on its own would escape the URL check. */
    private static final List<String> ADD_BACKEND_PARAMETERS =
            List.of("name", "url", "user", "password", "from", "backuper", "weight", "poolSize");
    // As nameType in config/raidb.xsd: an added backend can move into the configuration file as it is.
    private static final Pattern BACKEND_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.\\-]{0,63}");

    private final Map<String, VirtualDatabase> virtualDatabases;
    private final Operations operations;
    private final VirtualDatabaseAccess access;
    private final BackendUrlPolicy urlPolicy;
    private final ExecutorService runner;

    /** How the admin API finds the virtual database a request names and checks its admin. */
    @FunctionalInterface
    interface VirtualDatabaseAccess {
        VirtualDatabase administered(AdminPrincipal admin, Map<String, String> parameters);
    }

    RecoveryApi(
            Map<String, VirtualDatabase> virtualDatabases,
            Operations operations,
            VirtualDatabaseAccess access,
            BackendUrlPolicy urlPolicy) {
        this.virtualDatabases = virtualDatabases;
        this.operations = operations;
        this.access = access;
        this.urlPolicy = urlPolicy;
        AtomicInteger n = new AtomicInteger();
        this.runner = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "raidb-admin-operation-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    List<Route> routes() {
        String backend = "/api/virtualdatabases/{vdb}/backends/{backend}";
        return List.of(
                new Route("GET", "/api/virtualdatabases/{vdb}/checkpoints", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    return ApiResponse.ok(Map.of(
                            "virtualDatabase",
                            vdb.name(),
                            "checkpoints",
                            call(() -> vdb.recovery().checkpoints()).stream()
                                    .map(RecoveryApi::checkpoint)
                                    .toList()));
                }),
                new Route("POST", "/api/virtualdatabases/{vdb}/checkpoints", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    Checkpoint cp = call(() -> vdb.recovery().checkpoint(p.get("name")));
                    return ApiResponse.ok(Map.of("virtualDatabase", vdb.name(), "checkpoint", checkpoint(cp)));
                }),
                new Route("POST", "/api/virtualdatabases/{vdb}/purge", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    String before =
                            required(p, "before", "the checkpoint before which to purge (purge log before CHECKPOINT)");
                    int deleted = call(() -> vdb.recovery().purgeBefore(before));
                    return ApiResponse.ok(Map.of(
                            "virtualDatabase",
                            vdb.name(),
                            "before",
                            before,
                            "entriesDeleted",
                            deleted,
                            "message",
                            deleted + " log entries before checkpoint " + before + " deleted"));
                }),
                new Route("GET", "/api/virtualdatabases/{vdb}/dumps", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    return ApiResponse.ok(Map.of(
                            "virtualDatabase",
                            vdb.name(),
                            "dumps",
                            call(() -> vdb.dumps().dumps()).stream()
                                    .map(RecoveryApi::dump)
                                    .toList()));
                }),
                new Route("POST", backend + "/enable", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    DatabaseBackend b = backend(vdb, p);
                    // force: the administrator vouches for a backend the controller saw diverge; named in the log.
                    String forcedBy = booleanParameter(p, "force") ? admin.user() : null;
                    return start(
                            vdb,
                            "replay",
                            b.name(),
                            "entries",
                            call(() -> vdb.recovery().enable(b, forcedBy)),
                            joined -> "backend " + b.name() + " enabled at checkpoint " + joined);
                }),
                new Route("POST", backend + "/backup", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    DatabaseBackend b = backend(vdb, p);
                    return start(
                            vdb,
                            "backup",
                            b.name(),
                            "rows",
                            call(() -> vdb.dumps().backup(b, p.get("as"))),
                            d -> "dump " + d.name() + " of " + b.name() + " taken at checkpoint " + d.checkpoint()
                                    + " (" + d.path() + ")");
                }),
                new Route("POST", backend + "/restore", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    DatabaseBackend b = backend(vdb, p);
                    String dump = required(p, "dump", "the dump to restore (restore BACKEND from DUMP)");
                    RecoveryTask<DumpRecord> task;
                    try {
                        task = vdb.dumps().restore(b, dump);
                    } catch (SQLException e) {
                        throw refusal(otherVirtualDatabaseOwning(vdb, dump, e));
                    }
                    return start(
                            vdb,
                            "restore",
                            b.name(),
                            "rows",
                            task,
                            d -> "backend " + b.name() + " restored from dump " + d.name()
                                    + "; enable it to replay the log from checkpoint " + d.checkpoint());
                }),
                new Route("POST", "/api/virtualdatabases/{vdb}/verify", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    boolean repair = booleanParameter(p, "repair");
                    return start(
                            vdb,
                            repair ? "verify --repair" : "verify",
                            "tables",
                            "checksums",
                            call(() -> vdb.verifier().verify(repair)),
                            VerifyReport::summary);
                }),
                new Route("GET", "/api/virtualdatabases/{vdb}/verify", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    return ApiResponse.ok(vdb.verifier()
                            .lastReport()
                            .orElseThrow(() -> AdminException.notFound("virtual database " + vdb.name()
                                    + " has not been verified since the controller started: verify " + vdb.name())));
                }),
                new Route("POST", "/api/virtualdatabases/{vdb}/backends", (admin, p) -> {
                    VirtualDatabase vdb = access.administered(admin, p);
                    BackendConfig config = newBackend(p);
                    return start(
                            vdb,
                            "add backend",
                            config.name(),
                            "rows",
                            call(() -> vdb.dumps().addBackend(config, p.get("from"), p.get("backuper"))),
                            b -> "backend " + b.name() + " added and "
                                    + (b.isEnabled() ? "enabled" : "left disabled: " + b.disabledReason()));
                }));
    }

    private <T> ApiResponse start(
            VirtualDatabase vdb,
            String kind,
            String target,
            String unit,
            RecoveryTask<T> task,
            java.util.function.Function<T, String> success) {
        Operation op = operations.start(kind, vdb.name(), target, unit, -1);
        Progress progress = new Progress() {
            @Override
            public void total(long units) {
                op.total(units);
            }

            @Override
            public void advance(long units) {
                op.advance(units);
            }
        };
        runner.execute(() -> {
            try {
                op.succeed(success.apply(task.run(progress)));
            } catch (SQLException | RuntimeException e) {
                op.fail(e.getMessage());
            }
        });
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("message", kind + " of " + target + " started: watch operation " + op.id());
        body.put("operation", op.progress());
        return new ApiResponse(202, body);
    }

    /**
     * The new backend, checked before anything changes: its name becomes part of file and checkpoint
     * names, and its URL is what the controller will run the driver with.
     */
    private BackendConfig newBackend(Map<String, String> p) {
        String name = required(p, "name", "the new backend's name");
        String url = required(p, "url", "the new backend's JDBC URL");
        if (!BACKEND_NAME.matcher(name).matches()) {
            throw new AdminException(
                    400,
                    "invalid backend name '" + name + "': letters, digits, '_', '.' and '-', starting"
                            + " with a letter or '_', at most 64 characters");
        }
        for (String parameter : p.keySet()) {
            if (!parameter.equals("vdb") && !ADD_BACKEND_PARAMETERS.contains(parameter)) {
                throw new AdminException(
                        400,
                        "unknown parameter '" + parameter + "' for add backend: it takes "
                                + String.join(", ", ADD_BACKEND_PARAMETERS) + "; driver options belong in the URL");
            }
        }
        if (!url.startsWith("jdbc:")) {
            throw new AdminException(
                    400, "invalid JDBC URL '" + JdbcUrl.withoutSecrets(url) + "': it starts with jdbc:");
        }
        try {
            urlPolicy.check(url);
        } catch (RefusedUrlException e) {
            throw new AdminException(400, e.getMessage());
        }
        return new BackendConfig(
                name,
                url,
                p.getOrDefault("user", ""),
                p.getOrDefault("password", ""),
                intParameter(p, "weight", ConfigDefaults.BACKEND_WEIGHT),
                intParameter(p, "poolSize", ConfigDefaults.BACKEND_POOL_SIZE),
                List.of());
    }

    private static int intParameter(Map<String, String> p, String name, int byDefault) {
        String v = p.get(name);
        if (v == null) {
            return byDefault;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new AdminException(400, name + " must be a positive integer, not '" + v + "'");
    }

    private static boolean booleanParameter(Map<String, String> p, String name) {
        String v = p.get(name);
        if (v == null || v.equalsIgnoreCase("false")) {
            return false;
        }
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        throw new AdminException(400, name + " must be true or false, not '" + v + "'");
    }

    private static DatabaseBackend backend(VirtualDatabase vdb, Map<String, String> p) {
        return call(() -> vdb.backend(p.get("backend")));
    }

    private static String required(Map<String, String> p, String name, String what) {
        String v = p.get(name);
        if (v == null || v.isBlank()) {
            throw new AdminException(400, "parameter '" + name + "' is missing: " + what);
        }
        return v;
    }

    /** A dump unknown here but registered by another virtual database of this controller says so. */
    private SQLException otherVirtualDatabaseOwning(VirtualDatabase vdb, String dump, SQLException e) {
        if (!SqlStates.UNDEFINED_OBJECT.equals(e.getSQLState())) {
            return e;
        }
        for (VirtualDatabase other : virtualDatabases.values()) {
            try {
                if (other != vdb && other.dumps().dump(dump).isPresent()) {
                    return new SQLException(
                            "dump " + dump + " belongs to virtual database " + other.name() + ", not to " + vdb.name()
                                    + ": a dump can only be restored into the virtual database it was taken from",
                            SqlStates.WRONG_OBJECT_TYPE,
                            e);
                }
            } catch (SQLException ignored) {
                // that virtual database's log cannot answer; the original error stands
            }
        }
        return e;
    }

    @FunctionalInterface
    private interface SqlCall<T> {
        T call() throws SQLException;
    }

    private static <T> T call(SqlCall<T> c) {
        try {
            return c.call();
        } catch (SQLException e) {
            throw refusal(e);
        }
    }

    /** HTTP status for a refused operation, from its SQLState. */
    static AdminException refusal(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        int status = switch (state) {
            case SqlStates.UNDEFINED_OBJECT -> 404;
            case SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    SqlStates.OBJECT_IN_USE,
                    SqlStates.DUPLICATE_OBJECT,
                    SqlStates.WRONG_OBJECT_TYPE,
                    SqlStates.LOCK_NOT_AVAILABLE -> 409;
            case SqlStates.CONNECTION_UNABLE, SqlStates.CONNECTION_FAILURE -> 502;
            default -> SqlStates.isSystemError(state) || SqlStates.isInternalError(state) ? 500 : 400;
        };
        return new AdminException(status, e.getMessage());
    }

    private static Map<String, Object> checkpoint(Checkpoint c) {
        return Map.of(
                "name",
                c.name(),
                "writePosition",
                c.position(),
                "created",
                c.createdAt().toString());
    }

    private static Map<String, Object> dump(DumpRecord d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", d.name());
        m.put("backend", d.backend());
        m.put("checkpoint", d.checkpoint());
        m.put("format", d.format());
        m.put("sizeBytes", d.sizeBytes());
        m.put("created", d.date().toString());
        m.put("path", d.path());
        return m;
    }
}
