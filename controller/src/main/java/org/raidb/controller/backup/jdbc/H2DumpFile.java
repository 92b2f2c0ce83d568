package org.raidb.controller.backup.jdbc;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.raidb.controller.backup.BackupException;
import org.raidb.controller.backup.DumpFile;

/**
 * A jdbcCopy dump: an H2 database file holding the copied tables and sequences, plus a table
 * {@value #INFO_TABLE} that marks it as a dump and says where it came from. H2 names its files
 * {@code <base>.mv.db}; the dump is that one file under whatever name the caller chose, so it is
 * written under an H2 name and renamed, and opened for reading through a hard link with an H2
 * name (a copy when the file system refuses links).
 */
final class H2DumpFile {

    static final String INFO_TABLE = "raidb_dump_info";
    static final String FORMAT_VERSION = "1";
    private static final String H2_SUFFIX = ".mv.db";
    // No .trace.db files next to dumps; read-only so that restoring never changes the dump.
    private static final String WRITE_OPTIONS = ";TRACE_LEVEL_FILE=0";
    private static final String READ_OPTIONS = ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE;TRACE_LEVEL_FILE=0";

    private H2DumpFile() {}

    /** The file H2 writes for the database named {@code base}. */
    static Path fileOf(Path base) {
        return base.resolveSibling(base.getFileName() + H2_SUFFIX);
    }

    /** A new, empty H2 database at {@link #fileOf}({@code base}). */
    static Connection create(Path base) throws SQLException {
        DumpFile.discard(fileOf(base));
        return DriverManager.getConnection("jdbc:h2:file:" + base.toAbsolutePath() + WRITE_OPTIONS);
    }

    /** Marks a finished dump; {@code info} says where it came from and what it holds. */
    static void writeInfo(Connection h2, Map<String, String> info) throws SQLException {
        try (Statement s = h2.createStatement()) {
            s.execute("CREATE TABLE \"" + INFO_TABLE
                    + "\" (\"info_key\" VARCHAR(100) PRIMARY KEY, \"info_value\" VARCHAR(10000))");
        }
        Map<String, String> all = new HashMap<>(info);
        all.put("format", JdbcCopier.NAME);
        all.put("format_version", FORMAT_VERSION);
        try (PreparedStatement p = h2.prepareStatement("INSERT INTO \"" + INFO_TABLE + "\" VALUES (?, ?)")) {
            for (Map.Entry<String, String> entry : all.entrySet()) {
                p.setString(1, entry.getKey());
                p.setString(2, entry.getValue());
                p.addBatch();
            }
            p.executeBatch();
        }
        h2.commit();
    }

    /** An open dump; closing it closes the connection and removes the link. */
    record Reader(Connection connection, Path link) implements AutoCloseable {
        @Override
        public void close() throws SQLException {
            try {
                connection.close();
            } finally {
                DumpFile.discard(link);
            }
        }
    }

    /** Opens an existing dump read-only, after checking that it is one this version can read. */
    static Reader open(Path dumpPath) throws SQLException {
        DumpFile.requireExisting(dumpPath);
        Path link = h2NamedLink(dumpPath);
        String base = link.toString().substring(0, link.toString().length() - H2_SUFFIX.length());
        Connection connection;
        try {
            connection = DriverManager.getConnection("jdbc:h2:file:" + base + READ_OPTIONS);
        } catch (SQLException e) {
            DumpFile.discard(link);
            throw notADump(dumpPath, "H2 cannot open it: " + e.getMessage());
        }
        try {
            checkInfo(connection, dumpPath);
            return new Reader(connection, link);
        } catch (SQLException | RuntimeException e) {
            connection.close();
            DumpFile.discard(link);
            throw e;
        }
    }

    private static void checkInfo(Connection h2, Path dumpPath) throws SQLException {
        Map<String, String> info = new HashMap<>();
        try (Statement s = h2.createStatement();
                ResultSet rs = s.executeQuery("SELECT \"info_key\", \"info_value\" FROM \"" + INFO_TABLE + "\"")) {
            while (rs.next()) {
                info.put(rs.getString(1), rs.getString(2));
            }
        } catch (SQLException e) {
            throw notADump(dumpPath, "it is an H2 database without the table " + INFO_TABLE);
        }
        if (!JdbcCopier.NAME.equals(info.get("format")) || !FORMAT_VERSION.equals(info.get("format_version"))) {
            throw notADump(
                    dumpPath,
                    "it says format " + info.get("format") + " version " + info.get("format_version")
                            + ", this controller reads " + JdbcCopier.NAME + " version " + FORMAT_VERSION);
        }
    }

    /** The dump under a name ending in .mv.db: a hard link beside it, else (read-only directory) a private copy. */
    private static Path h2NamedLink(Path dumpPath) throws BackupException {
        Path absolute = dumpPath.toAbsolutePath();
        try {
            Path link = absolute.resolveSibling(
                    "." + absolute.getFileName() + "." + System.nanoTime() + ".restore" + H2_SUFFIX);
            Files.createLink(link, absolute);
            return link;
        } catch (IOException | UnsupportedOperationException e) {
            try {
                // Written into the private temporary file, not over it: a replaced file would lose its permissions.
                Path copy = Files.createTempFile("raidb-restore-", H2_SUFFIX);
                try (OutputStream out = Files.newOutputStream(copy)) {
                    Files.copy(absolute, out);
                }
                return copy;
            } catch (IOException copyFailure) {
                throw BackupException.io("cannot read " + absolute, copyFailure);
            }
        }
    }

    private static BackupException notADump(Path dumpPath, String why) {
        return new BackupException(
                dumpPath.toAbsolutePath() + " is not a dump written by the backuper " + JdbcCopier.NAME + " (" + why
                        + "): restore another dump, or take a new one",
                BackupException.IO_FAILURE);
    }
}
