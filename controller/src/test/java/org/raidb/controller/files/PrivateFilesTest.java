package org.raidb.controller.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the controller creates is for its own user only, whatever the process's umask. */
class PrivateFilesTest {
    @TempDir
    Path dir;

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void directoriesAreCreatedOwnerOnlyAndExistingOnesAreLeftAlone() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path deep = dir.resolve("a/b/c");

        PrivateFiles.createDirectories(deep);
        PrivateFiles.createDirectories(deep); // again: nothing to do

        assertThat(mode(dir.resolve("a"))).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("a/b"))).isEqualTo("rwx------");
        assertThat(mode(deep)).isEqualTo("rwx------");
        assertThat(mode(dir))
                .as("an existing directory is the administrator's choice")
                .isEqualTo("rwxr-xr-x");
    }

    @Test
    void filesWrittenWholeAreOwnerOnlyAndLeaveNoPartialFile() throws Exception {
        Path file = dir.resolve("state/added.json");

        PrivateFiles.writeAtomically(file, "[1]".getBytes());
        PrivateFiles.writeAtomically(file, "[1,2]".getBytes());

        assertThat(Files.readString(file)).isEqualTo("[1,2]");
        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(mode(dir.resolve("state"))).isEqualTo("rwx------");
        try (var listed = Files.list(dir.resolve("state"))) {
            assertThat(listed).containsExactly(file);
        }
    }

    @Test
    void filesOthersCreatedAreNarrowed() throws Exception {
        Path tree = dir.resolve("store");
        Files.createDirectories(
                tree.resolve("sub"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Path file = Files.createFile(
                tree.resolve("sub/x.mv.db"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));

        PrivateFiles.restrictTree(tree);

        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(mode(tree.resolve("sub"))).isEqualTo("rwx------");
    }

    @Test
    void anExistingHistoryFileIsNarrowedAndAMissingOneCreatedPrivate() throws Exception {
        Path existing = Files.createFile(
                dir.resolve("old_history"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        Files.writeString(existing, "show backends\n");
        Path missing = dir.resolve("new_history");

        PrivateFiles.ensurePrivateFile(existing);
        PrivateFiles.ensurePrivateFile(missing);

        assertThat(mode(existing)).isEqualTo("rw-------");
        assertThat(Files.readString(existing)).isEqualTo("show backends\n");
        assertThat(mode(missing)).isEqualTo("rw-------");
    }
}
