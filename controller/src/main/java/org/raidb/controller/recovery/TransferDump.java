package org.raidb.controller.recovery;

import java.nio.file.Path;

/**
 * A dump written for a controller that joins the group ({@link DumpManager#dumpLive}), and what that
 * controller needs to load it into its backends ({@link DumpManager#loadTransfer}). Not in the dump
 * registry: no one restores it by name.
 *
 * @param format the name of the backuper that wrote it and can load it ({@link
 *     org.raidb.controller.backup.Backuper#name()})
 * @param path the file
 * @param sizeBytes the file's size
 * @param rows rows it holds, all tables together
 */
public record TransferDump(String format, Path path, long sizeBytes, long rows) {}
