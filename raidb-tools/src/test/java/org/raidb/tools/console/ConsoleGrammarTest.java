package org.raidb.tools.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsoleGrammarTest {

    @Test
    void showCommandsTakeAnOptionalVirtualDatabaseAndIgnoreTheCaseOfCommandWords() throws Exception {
        assertThat(ConsoleGrammar.parse("show virtualdatabases")).isEqualTo(new ConsoleAction.ShowVirtualDatabases());
        assertThat(ConsoleGrammar.parse("  SHOW   Backends  Shop ")).isEqualTo(new ConsoleAction.ShowBackends("Shop"));
        assertThat(ConsoleGrammar.parse("show backends")).isEqualTo(new ConsoleAction.ShowBackends(null));
        assertThat(ConsoleGrammar.parse("show checkpoints shop")).isEqualTo(new ConsoleAction.ShowCheckpoints("shop"));
        assertThat(ConsoleGrammar.parse("show dumps")).isEqualTo(new ConsoleAction.ShowDumps(null));
        assertThat(ConsoleGrammar.parse("show operations")).isEqualTo(new ConsoleAction.ShowOperations());
    }

    @Test
    void disableNamesABackendAndOptionallyItsVirtualDatabase() throws Exception {
        assertThat(ConsoleGrammar.parse("disable pg2")).isEqualTo(new ConsoleAction.Disable("pg2", null));
        assertThat(ConsoleGrammar.parse("disable pg2 IN shop")).isEqualTo(new ConsoleAction.Disable("pg2", "shop"));
        assertThatThrownBy(() -> ConsoleGrammar.parse("disable pg2 from shop"))
                .isInstanceOf(ConsoleUsageException.class)
                .hasMessageContaining("usage: disable BACKEND [in VDB]");
        assertThatThrownBy(() -> ConsoleGrammar.parse("disable"))
                .isInstanceOf(ConsoleUsageException.class)
                .hasMessageContaining("example: disable pg2 in shop");
    }

    @Test
    void enableBackupAndRestoreNameABackendAndOptionallyItsVirtualDatabase() throws Exception {
        assertThat(ConsoleGrammar.parse("enable pg2")).isEqualTo(new ConsoleAction.Enable("pg2", null));
        assertThat(ConsoleGrammar.parse("ENABLE pg2 In shop")).isEqualTo(new ConsoleAction.Enable("pg2", "shop"));
        assertThat(ConsoleGrammar.parse("enable pg2 --force")).isEqualTo(new ConsoleAction.Enable("pg2", null, true));
        assertThat(ConsoleGrammar.parse("enable pg2 in shop --FORCE"))
                .isEqualTo(new ConsoleAction.Enable("pg2", "shop", true));
        assertThatThrownBy(() -> ConsoleGrammar.parse("enable pg2 --force --force"))
                .hasMessageContaining("usage: enable BACKEND");
        assertThat(ConsoleGrammar.parse("backup pg2")).isEqualTo(new ConsoleAction.Backup("pg2", null, null));
        assertThat(ConsoleGrammar.parse("backup pg2 AS Nightly"))
                .isEqualTo(new ConsoleAction.Backup("pg2", "Nightly", null));
        assertThat(ConsoleGrammar.parse("backup pg2 as nightly in shop"))
                .isEqualTo(new ConsoleAction.Backup("pg2", "nightly", "shop"));
        assertThat(ConsoleGrammar.parse("backup pg2 in shop")).isEqualTo(new ConsoleAction.Backup("pg2", null, "shop"));
        assertThat(ConsoleGrammar.parse("restore pg2 FROM nightly"))
                .isEqualTo(new ConsoleAction.Restore("pg2", "nightly", null));
        assertThat(ConsoleGrammar.parse("restore pg2 from nightly in shop"))
                .isEqualTo(new ConsoleAction.Restore("pg2", "nightly", "shop"));
    }

    @Test
    void enableBackupAndRestoreRefuseOtherShapesWithTheirUsage() {
        assertThatThrownBy(() -> ConsoleGrammar.parse("enable"))
                .isInstanceOf(ConsoleUsageException.class)
                .hasMessage("usage: enable BACKEND [--force] [in VDB]   (example: enable pg2 in shop)");
        assertThatThrownBy(() -> ConsoleGrammar.parse("enable pg1 pg2")).hasMessageContaining("usage: enable BACKEND");
        assertThatThrownBy(() -> ConsoleGrammar.parse("enable pg2 in")).hasMessageContaining("usage: enable BACKEND");
        assertThatThrownBy(() -> ConsoleGrammar.parse("backup"))
                .hasMessageContaining("usage: backup BACKEND [as NAME]");
        assertThatThrownBy(() -> ConsoleGrammar.parse("backup pg2 as")).hasMessageContaining("usage: backup BACKEND");
        assertThatThrownBy(() -> ConsoleGrammar.parse("backup pg2 to nightly"))
                .hasMessageContaining("example: backup pg2 as nightly in shop");
        assertThatThrownBy(() -> ConsoleGrammar.parse("restore pg2"))
                .hasMessageContaining("usage: restore BACKEND from DUMP [in VDB]");
        assertThatThrownBy(() -> ConsoleGrammar.parse("restore pg2 nightly")).hasMessageContaining("usage: restore");
        assertThatThrownBy(() -> ConsoleGrammar.parse("restore pg2 from")).hasMessageContaining("usage: restore");
    }

    @Test
    void addBackendTakesANameAndSettingsOfWhichUrlIsRequired() throws Exception {
        assertThat(ConsoleGrammar.parse("add backend pg3 url=jdbc:postgresql://h:5432/shop"))
                .isEqualTo(new ConsoleAction.AddBackend("pg3", Map.of("url", "jdbc:postgresql://h:5432/shop"), null));
        assertThat(ConsoleGrammar.parse("ADD Backend pg3 url=jdbc:postgresql://h/shop?ssl=true&user=x USER=raidb "
                        + "password=p=q from=pg1 backuper=jdbcCopy weight=2 poolsize=5 in shop"))
                .isEqualTo(new ConsoleAction.AddBackend(
                        "pg3",
                        Map.of(
                                "url",
                                "jdbc:postgresql://h/shop?ssl=true&user=x",
                                "user",
                                "raidb",
                                "password",
                                "p=q",
                                "from",
                                "pg1",
                                "backuper",
                                "jdbcCopy",
                                "weight",
                                "2",
                                "poolSize",
                                "5"),
                        "shop"));
    }

    @Test
    void addBackendNamesTheSettingItCannotTake() {
        assertThatThrownBy(() -> ConsoleGrammar.parse("add pg3 url=jdbc:h2:mem:x"))
                .hasMessageContaining("usage: add backend NAME url=JDBC_URL");
        assertThatThrownBy(() -> ConsoleGrammar.parse("add backend")).hasMessageContaining("usage: add backend NAME");
        assertThatThrownBy(() -> ConsoleGrammar.parse("add backend url=jdbc:h2:mem:x"))
                .hasMessageContaining("usage: add backend NAME");
        assertThatThrownBy(() -> ConsoleGrammar.parse("add backend pg3 user=raidb"))
                .hasMessageContaining("usage: add backend")
                .hasMessageContaining("example: add backend pg3 url=");
        assertThatThrownBy(() -> ConsoleGrammar.parse("add backend pg3 url=jdbc:h2:mem:x colour=blue"))
                .hasMessage("'colour=blue' is not a setting of add backend: it takes url=, user=, password=, from=, "
                        + "backuper=, weight=, poolSize=");
        assertThatThrownBy(() -> ConsoleGrammar.parse("add backend pg3 url=jdbc:h2:mem:x raidb"))
                .hasMessageContaining("'raidb' is not a setting of add backend");
        assertThatThrownBy(() -> ConsoleGrammar.parse("add backend pg3 url=jdbc:h2:mem:x user="))
                .hasMessage("setting 'user' of add backend has no value: user=VALUE");
        assertThatThrownBy(() -> ConsoleGrammar.parse("add backend pg3 url=jdbc:h2:mem:x URL=jdbc:h2:mem:y"))
                .hasMessage("setting 'url' of add backend is given twice");
    }

    @Test
    void checkpointTakesAnOptionalNameAndVirtualDatabase() throws Exception {
        assertThat(ConsoleGrammar.parse("checkpoint")).isEqualTo(new ConsoleAction.Checkpoint(null, null));
        assertThat(ConsoleGrammar.parse("checkpoint Before-Upgrade"))
                .isEqualTo(new ConsoleAction.Checkpoint("Before-Upgrade", null));
        assertThat(ConsoleGrammar.parse("checkpoint in shop")).isEqualTo(new ConsoleAction.Checkpoint(null, "shop"));
        assertThat(ConsoleGrammar.parse("checkpoint cp1 IN shop"))
                .isEqualTo(new ConsoleAction.Checkpoint("cp1", "shop"));
        assertThatThrownBy(() -> ConsoleGrammar.parse("checkpoint in"))
                .hasMessage("usage: checkpoint [NAME] [in VDB]   (example: checkpoint before-upgrade in shop)");
        assertThatThrownBy(() -> ConsoleGrammar.parse("checkpoint cp1 cp2")).hasMessageContaining("usage: checkpoint");
    }

    @Test
    void purgeLogNeedsTheCheckpointBeforeWhichToPurge() throws Exception {
        assertThat(ConsoleGrammar.parse("purge log before cp1")).isEqualTo(new ConsoleAction.PurgeLog("cp1", null));
        assertThat(ConsoleGrammar.parse("PURGE Log BEFORE cp1 in shop"))
                .isEqualTo(new ConsoleAction.PurgeLog("cp1", "shop"));
        assertThatThrownBy(() -> ConsoleGrammar.parse("purge log"))
                .hasMessage(
                        "usage: purge log before CHECKPOINT [in VDB]   (example: purge log before before-upgrade in shop)");
        assertThatThrownBy(() -> ConsoleGrammar.parse("purge before cp1")).hasMessageContaining("usage: purge log");
        assertThatThrownBy(() -> ConsoleGrammar.parse("purge log after cp1")).hasMessageContaining("usage: purge log");
        assertThatThrownBy(() -> ConsoleGrammar.parse("purge log before cp1 cp2"))
                .hasMessageContaining("usage: purge");
    }

    @Test
    void verifyTakesAnOptionalVirtualDatabaseAndRepair() throws Exception {
        assertThat(ConsoleGrammar.parse("verify")).isEqualTo(new ConsoleAction.Verify(null, false));
        assertThat(ConsoleGrammar.parse("VERIFY shop")).isEqualTo(new ConsoleAction.Verify("shop", false));
        assertThat(ConsoleGrammar.parse("verify shop --repair")).isEqualTo(new ConsoleAction.Verify("shop", true));
        assertThat(ConsoleGrammar.parse("verify --repair")).isEqualTo(new ConsoleAction.Verify(null, true));
        assertThatThrownBy(() -> ConsoleGrammar.parse("verify shop other"))
                .hasMessage("usage: verify [VDB] [--repair]   (example: verify shop --repair)");
        assertThatThrownBy(() -> ConsoleGrammar.parse("verify shop --fix")).hasMessageContaining("usage: verify");
        assertThatThrownBy(() -> ConsoleGrammar.parse("verify --repair --repair"))
                .hasMessageContaining("usage: verify");
    }

    @Test
    void watchNeedsANumericOperationId() throws Exception {
        assertThat(ConsoleGrammar.parse("watch operation 12")).isEqualTo(new ConsoleAction.WatchOperation(12));
        assertThatThrownBy(() -> ConsoleGrammar.parse("watch operation twelve"))
                .hasMessageContaining("'twelve' is not an operation id");
        assertThatThrownBy(() -> ConsoleGrammar.parse("watch 12")).hasMessageContaining("usage: watch operation ID");
    }

    @Test
    void helpExitAndBlankLines() throws Exception {
        assertThat(ConsoleGrammar.parse("help")).isEqualTo(new ConsoleAction.Help(null));
        assertThat(ConsoleGrammar.parse("help show backends")).isEqualTo(new ConsoleAction.Help("show backends"));
        assertThat(ConsoleGrammar.parse("help show")).isEqualTo(new ConsoleAction.Help("show"));
        assertThat(ConsoleGrammar.parse("quit")).isEqualTo(new ConsoleAction.Exit());
        assertThat(ConsoleGrammar.parse("exit")).isEqualTo(new ConsoleAction.Exit());
        assertThat(ConsoleGrammar.parse("   ")).isEqualTo(new ConsoleAction.Nothing());
        assertThat(ConsoleGrammar.parse("shutdown")).isEqualTo(new ConsoleAction.Shutdown());
        assertThat(ConsoleGrammar.parse("help add backend")).isEqualTo(new ConsoleAction.Help("add backend"));
        assertThat(ConsoleGrammar.parse("help purge")).isEqualTo(new ConsoleAction.Help("purge"));
    }

    @Test
    void unknownCommandsAndArgumentsAreNamedInTheMessage() {
        assertThatThrownBy(() -> ConsoleGrammar.parse("frobnicate pg1"))
                .isInstanceOf(ConsoleUsageException.class)
                .hasMessage("unknown command 'frobnicate': type 'help' for the list of commands");
        assertThatThrownBy(() -> ConsoleGrammar.parse("show tables"))
                .hasMessageContaining("cannot show 'tables'")
                .hasMessageContaining("virtualdatabases");
        assertThatThrownBy(() -> ConsoleGrammar.parse("show")).hasMessageContaining("show what?");
        assertThatThrownBy(() -> ConsoleGrammar.parse("show backends shop extra"))
                .hasMessageContaining("usage: show backends [VDB]");
        assertThatThrownBy(() -> ConsoleGrammar.parse("shutdown now")).hasMessageContaining("usage: shutdown");
        assertThatThrownBy(() -> ConsoleGrammar.parse("help frobnicate"))
                .hasMessageContaining("no command 'frobnicate'");
    }

    @Test
    void helpTextExplainsOneCommandOrListsThemAll() {
        assertThat(HelpText.of("disable"))
                .startsWith("disable BACKEND [in VDB]\n")
                .contains("example: disable pg2 in shop");
        assertThat(HelpText.of("show"))
                .contains("show backends [VDB]")
                .contains("show dumps [VDB]")
                .doesNotContain("disable BACKEND");
        assertThat(HelpText.of("add"))
                .startsWith("add backend NAME url=JDBC_URL")
                .contains("example: add backend pg3 url=jdbc:postgresql://");
        assertThat(HelpText.of("purge")).startsWith("purge log before CHECKPOINT [in VDB]\n");
        assertThat(HelpText.of("ENABLE"))
                .contains("Ctrl-C stops watching, not the replay")
                .contains("example: enable pg2");
        String all = HelpText.of(null);
        CommandHelp.ALL.forEach(h -> assertThat(all).contains(h.syntax()));
    }

    @Test
    void everyHelpExampleIsACommandTheConsoleAccepts() {
        for (CommandHelp h : CommandHelp.ALL) {
            assertThatCode(() -> ConsoleGrammar.parse(h.example()))
                    .as(h.example())
                    .doesNotThrowAnyException();
            assertThat(h.example()).as(h.name()).startsWith(h.name().split(" ", -1)[0]);
        }
    }
}
