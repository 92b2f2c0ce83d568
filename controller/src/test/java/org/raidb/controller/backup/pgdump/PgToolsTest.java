package org.raidb.controller.backup.pgdump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.backup.BackupException;

class PgToolsTest {

    @TempDir
    Path dir;

    @Test
    void theConfiguredDirectoryWins() throws Exception {
        Path configured = tools(dir.resolve("configured"));
        Path onPath = tools(dir.resolve("bin"));
        PgTools found = PgTools.locate(Optional.of(configured), onPath.toString(), dir.resolve("none"));
        assertThat(found.pgDump()).isEqualTo(configured.resolve("pg_dump"));
        assertThat(found.pgRestore()).isEqualTo(configured.resolve("pg_restore"));
    }

    @Test
    void aConfiguredDirectoryWithoutToolsNamesItAndThePackageToInstall() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThatThrownBy(() -> PgTools.locate(
                        Optional.of(empty), tools(dir.resolve("bin")).toString(), dir))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining("not found in the configured toolsDir " + empty)
                .hasMessageContaining("install the Debian package postgresql-client")
                .satisfies(e -> assertThat(((BackupException) e).getSQLState()).isEqualTo("58030"));
    }

    @Test
    void thePathIsSearchedInOrderForADirectoryHoldingBothTools() throws Exception {
        Path onlyDump = dir.resolve("only-dump");
        executable(onlyDump.resolve("pg_dump"));
        Path first = tools(dir.resolve("first"));
        Path second = tools(dir.resolve("second"));
        String path = String.join(
                File.pathSeparator,
                List.of(dir.resolve("missing").toString(), onlyDump.toString(), first.toString(), second.toString()));
        assertThat(PgTools.locate(Optional.empty(), path, dir.resolve("none")).pgDump())
                .isEqualTo(first.resolve("pg_dump"));
    }

    @Test
    void withoutToolsOnThePathTheNewestVersionDirectoryIsUsed() throws Exception {
        Path versions = dir.resolve("postgresql");
        tools(versions.resolve("9.6/bin"));
        tools(versions.resolve("15/bin"));
        tools(versions.resolve("13/bin"));
        Files.createDirectories(versions.resolve("16/bin")); // an incomplete installation
        assertThat(PgTools.locate(Optional.empty(), "", versions).pgDump())
                .isEqualTo(versions.resolve("15/bin/pg_dump"));
    }

    @Test
    void noToolsAnywhereNamesThePackageToInstall() {
        assertThatThrownBy(() -> PgTools.locate(Optional.empty(), dir.toString(), dir.resolve("postgresql")))
                .isInstanceOf(BackupException.class)
                .hasMessageContaining("pg_dump and pg_restore not found on PATH nor in " + dir.resolve("postgresql"))
                .hasMessageContaining("apt-get install postgresql-client")
                .hasMessageContaining("toolsDir");
    }

    @Test
    void aFileThatIsNotExecutableIsNoTool() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createFile(bin.resolve("pg_dump"));
        Files.createFile(bin.resolve("pg_restore"));
        assertThatThrownBy(() -> PgTools.locate(Optional.of(bin), "", dir))
                .hasMessageContaining("not found in the configured toolsDir");
    }

    private static Path tools(Path bin) throws IOException {
        executable(bin.resolve("pg_dump"));
        executable(bin.resolve("pg_restore"));
        return bin;
    }

    private static void executable(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
