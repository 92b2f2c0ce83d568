package org.raidb.controller.files;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Files and directories that only the controller's own user may read. The recovery log holds every row
 * ever written, dumps hold whole databases, and the state files hold backends' passwords; Java has no
 * umask, so every creation asks for owner-only permissions itself (0600 files, 0700 directories), and
 * files other code creates (H2) are narrowed once they exist. On a file system without POSIX permissions
 * these calls create the files plainly.
 */
public final class PrivateFiles {
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private PrivateFiles() {}

    /**
     * Creates {@code dir} and its missing parents owner-only. Directories that already exist are left as
     * they are: an administrator who made a dump directory shared chose so.
     */
    public static Path createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        Deque<Path> missing = new ArrayDeque<>();
        for (Path p = absolute; p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.push(p);
        }
        while (!missing.isEmpty()) {
            Path p = missing.pop();
            try {
                if (POSIX) {
                    Files.createDirectory(p, PosixFilePermissions.asFileAttribute(DIRECTORY));
                } else {
                    Files.createDirectory(p);
                }
            } catch (FileAlreadyExistsException raced) {
                if (!Files.isDirectory(p)) {
                    throw raced;
                }
            }
        }
        return dir;
    }

    /** A new empty owner-only file in {@code dir} (created if missing), named {@code prefix…suffix}. */
    public static Path createTempFile(Path dir, String prefix, String suffix) throws IOException {
        createDirectories(dir);
        return POSIX
                ? Files.createTempFile(dir, prefix, suffix, fileAttribute())
                : Files.createTempFile(dir, prefix, suffix);
    }

    /**
     * Replaces {@code file} with {@code content}, owner-only, so that a crash leaves the old or the new
     * file whole: written beside it, then renamed over it.
     */
    public static void writeAtomically(Path file, byte[] content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path partial = createTempFile(dir, "." + file.getFileName() + ".", ".partial");
        try {
            try (OutputStream out = Files.newOutputStream(partial)) {
                out.write(content);
            }
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** Creates {@code file} empty and owner-only if it does not exist; narrows it to owner-only if it does. */
    public static void ensurePrivateFile(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            createDirectories(parent);
        }
        try {
            if (POSIX) {
                Files.createFile(file, fileAttribute());
            } else {
                Files.createFile(file);
            }
        } catch (FileAlreadyExistsException exists) {
            restrict(file);
        }
    }

    /** Narrows a file to 0600 (a directory to 0700) that someone else created with wider permissions. */
    public static void restrict(Path path) throws IOException {
        if (POSIX) {
            Files.setPosixFilePermissions(path, Files.isDirectory(path) ? DIRECTORY : FILE);
        }
    }

    /** {@link #restrict} on {@code dir} and everything below it. */
    public static void restrictTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                try {
                    restrict(p);
                } catch (NoSuchFileException gone) {
                    // a temporary file deleted meanwhile: nothing left to protect
                }
            }
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> fileAttribute() {
        return PosixFilePermissions.asFileAttribute(FILE);
    }
}
