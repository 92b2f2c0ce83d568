package org.raidb.controller.backup;

import java.nio.file.Path;
import java.sql.SQLException;

/**
 * Takes a database's contents out of a backend and puts them into another: the dump and restore
 * steps of bringing a backend back (restore a dump, then replay the recovery log from the dump's
 * checkpoint), and the direct copy used to add a backend.
 *
 * <p>Implementations are chosen by {@link #name()} in the configuration ({@code Backupers.byName} in the recovery package),
 * are thread-safe, and keep no state between calls. Every failure is a {@link SQLException} whose
 * SQLState says what kind ({@link BackupException}) and whose message says what to do. The source
 * is only read; the target's tables that the dump holds are replaced, other tables are left alone.
 */
public interface Backuper {

    /** The name that selects this backuper in the configuration and that its dumps carry as format. */
    String name();

    /**
     * Writes a dump of {@code source} to {@code dumpPath} (replaced if it exists). A failed dump leaves
     * no file at {@code dumpPath}.
     */
    DumpResult dump(BackendEndpoint source, Path dumpPath, CopyProgress progress) throws SQLException;

    /**
     * Writes a dump of {@code source} as {@link #dump(BackendEndpoint, Path, CopyProgress)} does, telling the caller
     * when the source may take writes again: the dump shows the source as it was when {@code snapshotTaken} ran.
     * {@code snapshotTaken} runs exactly once, on the calling thread, at the latest before this method returns or
     * throws, so that a caller that holds the source's writes for the dump always gets to release them. It must be
     * quick; an exception it throws is this method's (suppressed by the dump's own failure, if any).
     *
     * <p>This default runs it after the whole dump: writes stay held for all of it, which is right for any
     * backuper. A backuper that reads the source in one snapshot runs it as soon as everything the dump shows is
     * fixed, and the rest of the dump reads that snapshot while the source takes writes.
     */
    default DumpResult dump(BackendEndpoint source, Path dumpPath, CopyProgress progress, Runnable snapshotTaken)
            throws SQLException {
        try (SnapshotHook hook = new SnapshotHook(snapshotTaken)) {
            return dump(source, dumpPath, progress);
        }
    }

    /**
     * Loads a dump written by this backuper into {@code target}: afterwards the dumped tables (and
     * sequences) in {@code target} hold what they held in the source when dumped, whether {@code
     * target} was empty or held older versions of them.
     */
    void restore(Path dumpPath, BackendEndpoint target, CopyProgress progress) throws SQLException;

    /** Makes {@code target} hold what {@code source} holds, as a dump and restore would. */
    void copy(BackendEndpoint source, BackendEndpoint target, CopyProgress progress) throws SQLException;
}
