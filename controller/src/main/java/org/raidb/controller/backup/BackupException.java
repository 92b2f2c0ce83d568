package org.raidb.controller.backup;

import java.nio.file.Path;
import java.sql.SQLException;
import org.raidb.driver.protocol.SqlStates;

/**
 * A dump, restore or copy that failed. The SQLState says what kind of failure it was, so that the
 * recovery manager can tell a backend that is down from a broken dump or a missing tool:
 *
 * <ul>
 *   <li>{@value #UNREACHABLE}: the source or target database cannot be reached;
 *   <li>{@value #IO_FAILURE}: a file or an external tool failed (disk full, pg_dump not installed,
 *       pg_restore rejected the file);
 *   <li>{@value #NO_SUCH_FILE}: the dump file to restore does not exist;
 *   <li>{@value #UNSUPPORTED}: the database holds something this backuper cannot copy.
 * </ul>
 *
 * Other SQLStates are the database's own, passed through with the statement that failed.
 */
public final class BackupException extends SQLException {

    public static final String UNREACHABLE = SqlStates.CONNECTION_UNABLE;
    public static final String IO_FAILURE = SqlStates.IO_ERROR;
    public static final String NO_SUCH_FILE = SqlStates.UNDEFINED_FILE;
    public static final String UNSUPPORTED = SqlStates.FEATURE_NOT_SUPPORTED;

    public BackupException(String message, String sqlState) {
        super(message, sqlState);
    }

    public BackupException(String message, String sqlState, Throwable cause) {
        super(message, sqlState, cause);
    }

    /** Connecting to {@code endpoint} failed with {@code cause}. */
    public static BackupException unreachable(BackendEndpoint endpoint, SQLException cause) {
        return new BackupException(
                "cannot connect to " + endpoint + ": " + cause.getMessage()
                        + " (check that the server is up and reachable, and the URL, user and password)",
                UNREACHABLE,
                cause);
    }

    /** The dump to restore is not there. */
    public static BackupException missingDump(Path dumpPath) {
        return new BackupException(
                "dump file " + dumpPath.toAbsolutePath() + " does not exist (check the path, or take a new dump)",
                NO_SUCH_FILE);
    }

    /** A file operation failed; {@code what} says which, in the words of an admin. */
    public static BackupException io(String what, Throwable cause) {
        return new BackupException(what + ": " + cause.getMessage(), IO_FAILURE, cause);
    }
}
