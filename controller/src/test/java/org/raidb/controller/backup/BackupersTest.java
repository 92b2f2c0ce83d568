package org.raidb.controller.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.raidb.controller.recovery.Backupers;

class BackupersTest {

    @Test
    void namesSelectTheBackupersWhateverTheCase() {
        assertThat(Backupers.byName("pgDump", Map.of()).name()).isEqualTo("pgDump");
        assertThat(Backupers.byName("PGDUMP", Map.of()).name()).isEqualTo("pgDump");
        assertThat(Backupers.byName(" jdbccopy ", Map.of()).name()).isEqualTo("jdbcCopy");
    }

    @Test
    void anUnknownNameIsRefusedNamingTheValidOnes() {
        assertThatThrownBy(() -> Backupers.byName("mysqldump", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown backuper 'mysqldump'")
                .hasMessageContaining("pgDump, jdbcCopy");
    }

    @Test
    void anUnknownOptionIsRefusedNamingTheValidOnes() {
        assertThatThrownBy(() -> Backupers.byName("pgDump", Map.of("toolDir", "/usr/bin")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("backuper pgDump: unknown option 'toolDir'; valid options: tempDir, toolsDir");
        assertThatThrownBy(() -> Backupers.byName("jdbcCopy", Map.of("batchsize", "10")))
                .hasMessage("backuper jdbcCopy: unknown option 'batchsize'; valid options: batchSize, skipTablePrefix");
    }

    @Test
    void anOptionValueThatDoesNotParseIsRefusedNamingIt() {
        assertThatThrownBy(() -> Backupers.byName("jdbcCopy", Map.of("batchSize", "0")))
                .hasMessage("backuper jdbcCopy: option batchSize='0' must be a positive integer");
        assertThatThrownBy(() -> Backupers.byName("jdbcCopy", Map.of("batchSize", "many")))
                .hasMessage("backuper jdbcCopy: option batchSize='many' must be a positive integer");
    }

    @Test
    void anEndpointNeverShowsItsPassword() {
        BackendEndpoint endpoint = new BackendEndpoint("jdbc:postgresql://db1:5432/shop", "app", "s3cret");
        assertThat(endpoint.toString())
                .isEqualTo("app@jdbc:postgresql://db1:5432/shop")
                .doesNotContain("s3cret");
        assertThat(endpoint.credentials().getProperty("password")).isEqualTo("s3cret");
        assertThat(new BackendEndpoint("jdbc:h2:mem:x", null, null).toString()).isEqualTo("jdbc:h2:mem:x");
    }

    @Test
    void errorsCarryTheirSqlState() {
        BackupException unreachable = BackupException.unreachable(
                new BackendEndpoint("jdbc:postgresql://db1/shop", "app", "pw"),
                new java.sql.SQLException("Connection refused", "08001"));
        assertThat(unreachable.getSQLState()).isEqualTo("08001");
        assertThat(unreachable.getMessage())
                .contains("app@jdbc:postgresql://db1/shop", "Connection refused", "server is up")
                .doesNotContain("pw");
        BackupException missing = BackupException.missingDump(java.nio.file.Path.of("/backups/none.dump"));
        assertThat(missing.getSQLState()).isEqualTo("58P01");
        assertThat(missing.getMessage()).contains("/backups/none.dump", "does not exist");
    }
}
