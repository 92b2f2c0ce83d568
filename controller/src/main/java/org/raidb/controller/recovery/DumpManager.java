package org.raidb.controller.recovery;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backup.BackendEndpoint;
import org.raidb.controller.backup.BackupException;
import org.raidb.controller.backup.Backuper;
import org.raidb.controller.backup.CopyProgress;
import org.raidb.controller.backup.DumpFile;
import org.raidb.controller.backup.DumpResult;
import org.raidb.controller.backup.SnapshotHook;
import org.raidb.controller.backup.pgdump.PgDumpBackuper;
import org.raidb.controller.backup.pgdump.PgTools;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.config.BackupSettings;
import org.raidb.controller.files.SafeName;
import org.raidb.controller.jdbcurl.DriverFamily;
import org.raidb.controller.jdbcurl.JdbcUrl;
import org.raidb.driver.protocol.SqlStates;
import org.raidb.recovery.Checkpoint;
import org.raidb.recovery.DisableCause;
import org.raidb.recovery.DumpRecord;
import org.raidb.recovery.RecordedBackendState;
import org.raidb.recovery.RecoveryLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dumps, restores and new backends of one virtual database: {@code backup} (disable at a checkpoint,
 * dump, enable by replay), {@code restore} (load a dump, position the backend at the dump's
 * checkpoint), {@code add backend} (copy a live backend at a checkpoint, replay, enable: the
 * initial state C-JDBC left to the administrator, done online), and the transfer of a backend's
 * contents to a controller that joins the group ({@link #dumpLive}, {@link #loadTransfer}).
 */
public final class DumpManager {
    private static final Logger log = LoggerFactory.getLogger(DumpManager.class);
    private static final DateTimeFormatter DUMP_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final String vdb;
    private final BackupSettings settings;
    private final Path dumpDir;
    private final WriteLog writeLog;
    private final RecoveryManager recovery;
    private final List<DatabaseBackend> backends;
    private final AddedBackends added;
    private final Function<BackendConfig, DatabaseBackend> newBackend;
    private final DisabledTables disabledTables;

    public DumpManager(
            String vdb,
            BackupSettings settings,
            Path dataDir,
            WriteLog writeLog,
            RecoveryManager recovery,
            List<DatabaseBackend> backends,
            AddedBackends added,
            Function<BackendConfig, DatabaseBackend> newBackend,
            DisabledTables disabledTables) {
        this.newBackend = newBackend;
        this.disabledTables = disabledTables;
        this.vdb = vdb;
        this.settings = settings;
        this.dumpDir = settings.dumpDir() != null
                ? Path.of(settings.dumpDir())
                : dataDir.resolve("dumps").resolve(vdb);
        this.writeLog = writeLog;
        this.recovery = recovery;
        this.backends = backends;
        this.added = added;
    }

    private RecoveryLog log() throws SQLException {
        if (!writeLog.enabled()) {
            throw new SQLException(
                    "virtual database " + vdb + " runs without a recovery log: a dump could not be brought up"
                            + " to date; enable <recoveryLog> in its configuration",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        return writeLog.log();
    }

    public List<DumpRecord> dumps() throws SQLException {
        return writeLog.enabled() ? log().dumps() : List.of();
    }

    public Optional<DumpRecord> dump(String name) throws SQLException {
        return writeLog.enabled() ? log().dump(name) : Optional.empty();
    }

    // ---- backup -----------------------------------------------------------------------------------

    /**
     * Dumps a backend at an exact checkpoint without stopping the others: an enabled backend is
     * disabled for the dump and enabled again by replay. Returns the registered dump.
     */
    public RecoveryTask<DumpRecord> backup(DatabaseBackend b, String dumpName) throws SQLException {
        refuseControllers(b.config().url()); // before it is disabled for its dump
        RecoveryLog l = log();
        String name =
                dumpName != null && !dumpName.isBlank() ? dumpName : b.name() + "-" + DUMP_TIME.format(Instant.now());
        Optional<String> problem = SafeName.problem(name);
        if (problem.isPresent()) {
            // The name becomes the dump's file name: it must not be able to leave the dump directory.
            throw new SQLException(
                    "invalid dump name '" + name + "': it becomes a file name in the dump directory, so "
                            + problem.get(),
                    SqlStates.INVALID_NAME);
        }
        if (l.dump(name).isPresent()) {
            throw new SQLException(
                    "a dump named " + name + " already exists in virtual database " + vdb
                            + "; choose another name (backup " + b.name() + " as NAME)",
                    SqlStates.DUPLICATE_OBJECT);
        }
        refuseStaleCopies(b, "back it up");
        boolean wasEnabled = b.isEnabled();
        if (!wasEnabled && b.disableCause() != null && b.disableCause().diverged()) {
            // A dump of it would carry the difference into whatever is restored from it.
            throw new SQLException(
                    "backend " + b.name() + " was disabled because its data diverged (" + b.disabledReason()
                            + "), so refusing to back it up: back up an enabled backend",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        if (wasEnabled && backends.stream().filter(DatabaseBackend::isEnabled).count() < 2) {
            throw new SQLException(
                    "backing up " + b.name() + " would leave virtual database " + vdb + " without an enabled"
                            + " backend; add a backend first (add backend …), or dump the database with its own tools",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        if (!wasEnabled && b.lastCheckpoint() == null) {
            throw new SQLException(
                    "backend " + b.name() + " has no checkpoint (" + b.disabledReason() + "): a dump of it could"
                            + " not be brought up to date; restore it first",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        recovery.claim(b, "backup");
        return progress -> {
            try {
                return dumpAt(b, name, wasEnabled, progress, l);
            } finally {
                recovery.release(b);
            }
        };
    }

    private DumpRecord dumpAt(DatabaseBackend b, String name, boolean wasEnabled, Progress progress, RecoveryLog l)
            throws SQLException {
        String checkpoint = recorded(
                b,
                wasEnabled
                        ? recovery.disable(b, DisableCause.administrator("disabled for backup " + name))
                                .join()
                        : b.lastCheckpoint());
        String reason = b.disabledReason();
        Backuper backuper = backuperFor(b.config().url(), b.config().url());
        Path path = dumpDir.resolve(name + "." + backuper.name());
        b.recovering("dumping to " + path);
        DumpResult result;
        try {
            result = backuper.dump(endpoint(b), path, copyProgress(progress));
            l.registerDump(new DumpRecord(
                    name,
                    b.name(),
                    checkpoint,
                    backuper.name(),
                    path.toAbsolutePath().toString(),
                    Instant.now(),
                    result.sizeBytes(),
                    vdb));
        } finally {
            b.disabledAt(reason, checkpoint);
        }
        log.info(
                "backend {} of virtual database {} dumped to {} at checkpoint {} ({} rows, {} bytes)",
                b.name(),
                vdb,
                path,
                checkpoint,
                result.rows(),
                result.sizeBytes());
        if (wasEnabled) {
            recovery.replayAndJoin(b, progress);
        }
        return l.dump(name).orElseThrow();
    }

    // ---- restore ----------------------------------------------------------------------------------

    /**
     * Loads a dump into a disabled backend and positions it at the dump's checkpoint, ready for
     * {@code enable}.
     */
    public RecoveryTask<DumpRecord> restore(DatabaseBackend b, String dumpName) throws SQLException {
        refuseControllers(b.config().url());
        RecoveryLog l = log();
        Optional<DumpRecord> found = l.dump(dumpName);
        if (found.isEmpty()) {
            throw new SQLException(
                    "no dump " + dumpName + " in virtual database " + vdb + "; its dumps are " + dumpNames(l)
                            + " (show dumps)",
                    SqlStates.UNDEFINED_OBJECT);
        }
        DumpRecord dump = found.get();
        if (!Files.isRegularFile(Path.of(dump.path()))) {
            throw new SQLException(
                    "dump " + dumpName + " is registered but its file " + dump.path() + " is missing; restore"
                            + " another dump, or take a new one (backup BACKEND)",
                    SqlStates.IO_ERROR);
        }
        if (b.isEnabled()) {
            throw new SQLException(
                    "backend " + b.name() + " is enabled: disable it before restoring a dump into it (disable "
                            + b.name() + ")",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        Backuper backuper = Backupers.byName(dump.format(), options());
        recovery.claim(b, "restore");
        return progress -> {
            try {
                load(
                        b,
                        Path.of(dump.path()),
                        backuper,
                        "dump " + dump.name(),
                        dump.checkpoint(),
                        "restore it again",
                        progress);
                return dump;
            } finally {
                recovery.release(b);
            }
        };
    }

    /**
     * Restores {@code file} into the disabled backend {@code b} and positions it at {@code checkpoint}, which the
     * file's contents stand for, ready to be enabled by replay. A failed restore leaves it disabled without a
     * checkpoint, with a reason that ends in {@code retry}.
     *
     * @param what the file, for messages: "dump nightly"
     */
    private void load(
            DatabaseBackend b,
            Path file,
            Backuper backuper,
            String what,
            String checkpoint,
            String retry,
            Progress progress)
            throws SQLException {
        b.recovering("restoring " + what);
        recovery.saveState(b, RecordedBackendState.RESTORING, null);
        try {
            backuper.restore(file, endpoint(b), copyProgress(progress));
        } catch (SQLException | RuntimeException e) {
            b.disabledAt("restore of " + what + " failed (" + e.getMessage() + "): " + retry, null);
            recovery.saveState(b, RecordedBackendState.DISABLED, null);
            throw e;
        }
        if (!b.tables().disabled().isEmpty()) {
            b.tables().clearDisabled(); // the dump's copies replace the stale ones; the replay brings them up to date
            disabledTables.save(backends);
        }
        // Its data is the dump's now: whatever made it diverge is gone, and enable may replay into it.
        b.disabledAt(
                DisableCause.administrator(
                        "restored from " + what + ": enable it to replay the log from checkpoint " + checkpoint),
                checkpoint);
        recovery.saveState(b, RecordedBackendState.DISABLED, checkpoint);
        log.info("backend {} of virtual database {} restored from {} (checkpoint {})", b.name(), vdb, what, checkpoint);
    }

    // ---- transfer to a controller that joins the group -------------------------------------------------------

    /**
     * Dumps an enabled backend to {@code path} for a controller that joins the group, without taking it out: it
     * goes on serving while the dump is written. The dump shows the backend as it was when {@code snapshotTaken}
     * ran, which it does exactly once, on this thread, before this method returns or throws ({@link
     * Backuper#dump(BackendEndpoint, Path, CopyProgress, Runnable)} says when for each backuper). The caller
     * holds the writes until then, with every write before them committed on {@code b}. Not in the dump registry:
     * a transfer file, not a dump users restore.
     */
    public TransferDump dumpLive(DatabaseBackend b, Path path, Runnable snapshotTaken) throws SQLException {
        try (SnapshotHook hook = new SnapshotHook(snapshotTaken)) {
            if (!b.isEnabled()) {
                throw new SQLException(
                        "backend " + b.name() + " is not enabled (" + b.disabledReason() + "): dump an enabled"
                                + " backend for the joining controller",
                        SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
            }
            refuseStaleCopies(b, "dump it for a joining controller");
            Backuper backuper = backuperFor(b.config().url(), b.config().url());
            recovery.claim(b, "dump for a joining controller");
            try {
                DumpResult result = backuper.dump(endpoint(b), path, CopyProgress.NONE, hook::fire);
                if (b.disableCause() != null && b.disableCause().diverged()) {
                    // Found in the minority on a write meanwhile: its data may have differed before the snapshot too.
                    DumpFile.discard(path);
                    throw new SQLException(
                            "backend " + b.name() + " was disabled while it was dumped because its data diverged ("
                                    + b.disabledReason() + "): dump another backend for the joining controller",
                            SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
                }
                log.info(
                        "backend {} of virtual database {} dumped to {} for a joining controller, while serving ({},"
                                + " {} rows, {} bytes)",
                        b.name(),
                        vdb,
                        path,
                        backuper.name(),
                        result.rows(),
                        result.sizeBytes());
                return new TransferDump(backuper.name(), result.path(), result.sizeBytes(), result.rows());
            } finally {
                recovery.release(b);
            }
        }
    }

    /**
     * Makes backend {@code b} hold the contents of a transfer file ({@link #dumpLive} on another controller) and
     * leaves it enabled, in step with this controller's recovery log: an enabled backend is disabled at a
     * checkpoint, a disabled one (whatever left it so) positioned at a new checkpoint at the log's end; the file
     * is restored and the backend enabled by replaying what was logged after that checkpoint.
     *
     * <p>So the file must show the database as this controller's log stands when the backend stops: the caller
     * lets no write through the virtual database from the first backend it loads to the last, which may leave it
     * for a while without an enabled backend. A missing file changes nothing; a restore that fails leaves the
     * backend disabled with a reason that says what to do.
     */
    public void loadTransfer(DatabaseBackend b, Path path, String format, Progress progress) throws SQLException {
        RecoveryLog l = log();
        Backuper backuper = transferBackuper(path, format);
        if (!Files.isRegularFile(path)) {
            throw new SQLException(
                    "transfer file " + path.toAbsolutePath() + " does not exist; backend " + b.name()
                            + " was left as it was: fetch the file from the controller that dumped it again",
                    BackupException.NO_SUCH_FILE);
        }
        recovery.claim(b, "load a transfer file");
        try {
            CompletableFuture<String> disabled =
                    recovery.disable(b, DisableCause.administrator("disabled to load transfer file " + path));
            String checkpoint = recorded(
                    b,
                    disabled != null
                            ? disabled.join()
                            : l.checkpoint(l.autoCheckpointName(b.name(), "loading"))
                                    .name());
            load(
                    b,
                    path,
                    backuper,
                    "transfer file " + path.toAbsolutePath(),
                    checkpoint,
                    "load a new transfer file (rejoin the controller group), or restore it from a dump of this"
                            + " controller (restore " + b.name() + " from DUMP, then enable " + b.name() + ")",
                    progress);
            recovery.replayAndJoin(b, progress);
        } finally {
            recovery.release(b);
        }
    }

    private Backuper transferBackuper(Path path, String format) throws SQLException {
        try {
            return Backupers.byName(format, options());
        } catch (IllegalArgumentException e) {
            throw new SQLException(
                    "transfer file " + path.toAbsolutePath() + " is in format '" + format + "', which this controller"
                            + " cannot load (" + e.getMessage() + "): run the same RAIDb version on every controller"
                            + " of the group",
                    SqlStates.INVALID_PARAMETER_VALUE,
                    e);
        }
    }

    // ---- add backend ------------------------------------------------------------------------------

    /**
     * Adds a backend whose database is empty (or stale): copies a live backend into it at a
     * checkpoint, replays what was written since and enables it. With two or more enabled backends
     * the source leaves the array for the copy and comes back by replay; with one, new writes wait
     * at the gate until the copy is done.
     */
    public RecoveryTask<DatabaseBackend> addBackend(BackendConfig config, String sourceName, String backuperName)
            throws SQLException {
        RecoveryLog l = log();
        for (DatabaseBackend b : backends) {
            if (b.name().equals(config.name()) || b.config().url().equals(config.url())) {
                throw new SQLException(
                        "virtual database " + vdb + " already has backend " + b.name() + " ("
                                + JdbcUrl.withoutSecrets(b.config().url()) + "); choose another name and URL",
                        SqlStates.DUPLICATE_OBJECT);
            }
        }
        DatabaseBackend source = sourceName != null
                ? named(sourceName)
                : backends.stream()
                        .filter(DatabaseBackend::isEnabled)
                        .findFirst()
                        .orElseThrow(() -> new SQLException(
                                "virtual database " + vdb + " has no enabled backend to copy from",
                                SqlStates.CONNECTION_FAILURE));
        if (!source.isEnabled()) {
            throw new SQLException(
                    "backend " + source.name() + " is not enabled: copy from an enabled backend",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
        refuseStaleCopies(source, "copy it");
        refuseControllers(source.config().url(), config.url());
        Backuper backuper = backuperName != null
                ? Backupers.byName(backuperName, options())
                : backuperFor(source.config().url(), config.url());
        DatabaseBackend target = newBackend.apply(config);
        target.preparePool(); // unreachable: 08001, before anything changes
        recovery.claim(target, "add backend");
        target.recovering("being added: copying " + source.name() + " with " + backuper.name());
        backends.add(target);
        added.add(config);
        return progress -> {
            try {
                // Kept in the added backends from now on: a controller that stops before the copy is done must
                // not start it as enabled.
                recovery.saveState(target, RecordedBackendState.RESTORING, null);
                if (backends.stream().filter(DatabaseBackend::isEnabled).count() >= 2) {
                    copyFromDisabledSource(source, target, backuper, progress);
                } else {
                    copyWithWritesHeld(source, target, backuper, progress, l);
                }
                return target;
            } catch (SQLException | RuntimeException e) {
                // Left out altogether, so that it can be added again once the cause is fixed.
                backends.remove(target);
                added.remove(config.name());
                target.close();
                throw e;
            } finally {
                recovery.release(target);
            }
        };
    }

    private void copyFromDisabledSource(
            DatabaseBackend source, DatabaseBackend target, Backuper backuper, Progress progress) throws SQLException {
        recovery.claim(source, "copy to " + target.name());
        try {
            String checkpoint = recovery.disable(
                            source, DisableCause.administrator("disabled to copy it to new backend " + target.name()))
                    .join();
            String reason = source.disabledReason();
            source.recovering("being copied to " + target.name());
            try {
                backuper.copy(endpoint(source), endpoint(target), copyProgress(progress));
            } catch (SQLException | RuntimeException e) {
                source.disabledAt(reason, checkpoint);
                // The source is intact: a copy that failed on the new backend's side must not cost the array a backend.
                rejoin(source, progress, e);
                throw e;
            }
            source.disabledAt(reason, checkpoint);
            recovery.replayAndJoin(source, progress);
            target.disabledAt("copied from " + source.name() + " at checkpoint " + checkpoint, checkpoint);
            recovery.replayAndJoin(target, progress);
        } finally {
            recovery.release(source);
        }
    }

    private void rejoin(DatabaseBackend source, Progress progress, Exception copyFailure) {
        try {
            recovery.replayAndJoin(source, progress);
        } catch (SQLException | RuntimeException e) {
            copyFailure.addSuppressed(e);
            log.warn(
                    "backend {} of virtual database {} stays disabled after the failed copy: {}",
                    source.name(),
                    vdb,
                    e.getMessage());
        }
    }

    private void copyWithWritesHeld(
            DatabaseBackend source, DatabaseBackend target, Backuper backuper, Progress progress, RecoveryLog l)
            throws SQLException {
        WriteGate gate = writeLog.gate();
        if (!gate.closeAndDrain(30_000)) {
            throw new SQLException(
                    "could not hold writes to copy " + source.name() + ": clients kept transactions open for 30 s;"
                            + " try again when they are idle",
                    SqlStates.LOCK_NOT_AVAILABLE);
        }
        try {
            Checkpoint at = l.checkpoint(l.autoCheckpointName(target.name(), "copied"));
            backuper.copy(endpoint(source), endpoint(target), copyProgress(progress));
            writeLog.enable(target, target::enable);
            recovery.saveState(target, RecordedBackendState.ENABLED, null);
            log.info(
                    "backend {} added to virtual database {}: copied from {} at checkpoint {} with writes held",
                    target.name(),
                    vdb,
                    source.name(),
                    at.name());
        } finally {
            gate.reopen();
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** The checkpoint a backend stopped at, which is null when it could not be recorded. */
    private static String recorded(DatabaseBackend b, String checkpoint) throws SQLException {
        if (checkpoint == null) {
            throw new SQLException(
                    "backend " + b.name() + ": the checkpoint it stopped at could not be recorded; see the"
                            + " controller log",
                    SqlStates.IO_ERROR);
        }
        return checkpoint;
    }

    /** A backend with disabled tables (RAIDb-2) holds stale copies of them: a dump or copy would spread them. */
    private static void refuseStaleCopies(DatabaseBackend b, String what) throws SQLException {
        if (!b.tables().disabled().isEmpty()) {
            throw new SQLException(
                    "backend " + b.name() + " holds stale copies of "
                            + String.join(", ", b.tables().disabled())
                            + " (disabled after a write failed there), so refusing to " + what
                            + ": use another backend, or restore "
                            + b.name() + " from a dump taken before",
                    SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE);
        }
    }

    private DatabaseBackend named(String name) throws SQLException {
        for (DatabaseBackend b : backends) {
            if (b.name().equals(name)) {
                return b;
            }
        }
        throw new SQLException(
                "unknown backend '" + name + "' in virtual database '" + vdb + "': its backends are "
                        + backends.stream().map(DatabaseBackend::name).toList(),
                SqlStates.UNDEFINED_OBJECT);
    }

    /** pgDump between PostgreSQL backends when its tools are there, else the generic copier. */
    private Backuper backuperFor(String sourceUrl, String targetUrl) throws SQLException {
        String name = settings.backuper();
        if ("auto".equals(name)) {
            boolean postgres = sourceUrl.startsWith("jdbc:postgresql:") && targetUrl.startsWith("jdbc:postgresql:");
            name = postgres && toolsFound() ? PgDumpBackuper.NAME : "jdbcCopy";
        }
        refuseControllers(sourceUrl, targetUrl);
        return Backupers.byName(name, options());
    }

    /**
     * A child controller is not dumped or restored through its parent: neither backuper can take one
     * consistent snapshot across its leaves, nor read its catalogue (one leaf's). It is brought back by
     * replay, and its own backends are backed up on the child.
     */
    private static void refuseControllers(String... urls) throws SQLException {
        for (String url : urls) {
            if (DriverFamily.of(url).orElse(null) == DriverFamily.RAIDB) {
                throw new SQLException(
                        JdbcUrl.withoutSecrets(url) + " is another controller's virtual database: backup, restore and"
                                + " copy do not go through a child controller. Bring the child back with enable (a"
                                + " replay from its checkpoint), and back up or restore its own backends on the"
                                + " child controller (docs/admin.md, \"Trees of controllers\")",
                        SqlStates.FEATURE_NOT_SUPPORTED);
            }
        }
    }

    private boolean toolsFound() {
        try {
            PgTools.locate(Optional.ofNullable(settings.toolsDir()).map(Path::of));
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private Map<String, String> options() {
        Map<String, String> options = new HashMap<>();
        if (settings.toolsDir() != null) {
            options.put(PgDumpBackuper.TOOLS_DIR, settings.toolsDir());
        }
        return options;
    }

    private static BackendEndpoint endpoint(DatabaseBackend b) {
        return new BackendEndpoint(
                b.config().url(), b.config().user(), b.config().password());
    }

    private static List<String> dumpNames(RecoveryLog l) throws SQLException {
        return l.dumps().stream().map(DumpRecord::name).toList();
    }

    private static CopyProgress copyProgress(Progress progress) {
        return new CopyProgress() {
            @Override
            public void begin(String step, String unit, long total) {
                progress.total(total < 0 ? 0 : total);
            }

            @Override
            public void advance(long units) {
                progress.advance(units);
            }
        };
    }
}
