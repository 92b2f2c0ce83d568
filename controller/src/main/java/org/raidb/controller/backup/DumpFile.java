package org.raidb.controller.backup;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.raidb.controller.files.PrivateFiles;

/**
 * How a dump file comes to be and is found again. A dump is written under a temporary name next to
 * its final path and renamed when complete, so that a path in the dump registry always names a
 * whole dump: a dump that fails half way (disk full, source down) leaves nothing under that path.
 */
public final class DumpFile {

    private DumpFile() {}

    /**
     * A new empty file in {@code dumpPath}'s directory (created if missing) to write the dump into
     * before {@link #publish}.
     */
    public static Path partialFor(Path dumpPath) throws BackupException {
        Path absolute = dumpPath.toAbsolutePath();
        try {
            // A dump is a whole database: private to the controller's user, as is a directory created for it.
            return PrivateFiles.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".partial");
        } catch (IOException e) {
            throw BackupException.io(
                    "cannot create a file next to " + absolute + " (check that the directory is writable)", e);
        }
    }

    /**
     * Renames the finished {@code partial} to {@code dumpPath}, replacing an older dump there, private to the
     * controller's user whoever wrote it (H2 creates its file with the process's umask).
     */
    public static void publish(Path partial, Path dumpPath) throws BackupException {
        try {
            PrivateFiles.restrict(partial);
            try {
                Files.move(partial, dumpPath, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, dumpPath, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw BackupException.io("cannot rename " + partial + " to " + dumpPath, e);
        }
    }

    /** Deletes a file that is no longer wanted, quietly: it is called on paths that already failed. */
    public static void discard(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a leftover temporary file is harmless; the failure that brought us here matters more
        }
    }

    /**
     * Checks that a dump is there before anything is done with it.
     *
     * @throws BackupException {@link BackupException#NO_SUCH_FILE} when there is no file at {@code dumpPath}
     */
    public static void requireExisting(Path dumpPath) throws BackupException {
        if (!Files.isRegularFile(dumpPath)) {
            throw BackupException.missingDump(dumpPath);
        }
    }

    /** The size of a written dump. */
    public static long size(Path dumpPath) throws BackupException {
        try {
            return Files.size(dumpPath);
        } catch (IOException e) {
            throw BackupException.io("cannot read the size of " + dumpPath, e);
        }
    }
}
