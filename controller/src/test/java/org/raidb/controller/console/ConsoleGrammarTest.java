package org.raidb.controller.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        .isInstanceOf(ConsoleUsageException.class).hasMessageContaining("usage: disable BACKEND [in VDB]");
    assertThatThrownBy(() -> ConsoleGrammar.parse("disable"))
        .isInstanceOf(ConsoleUsageException.class).hasMessageContaining("example: disable pg2 in shop");
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
  }

  @Test
  void unknownCommandsAndArgumentsAreNamedInTheMessage() {
    assertThatThrownBy(() -> ConsoleGrammar.parse("frobnicate pg1"))
        .isInstanceOf(ConsoleUsageException.class)
        .hasMessage("unknown command 'frobnicate': type 'help' for the list of commands");
    assertThatThrownBy(() -> ConsoleGrammar.parse("show tables"))
        .hasMessageContaining("cannot show 'tables'").hasMessageContaining("virtualdatabases");
    assertThatThrownBy(() -> ConsoleGrammar.parse("show")).hasMessageContaining("show what?");
    assertThatThrownBy(() -> ConsoleGrammar.parse("show backends shop extra"))
        .hasMessageContaining("usage: show backends [VDB]");
    assertThatThrownBy(() -> ConsoleGrammar.parse("shutdown now")).hasMessageContaining("usage: shutdown");
    assertThatThrownBy(() -> ConsoleGrammar.parse("help frobnicate")).hasMessageContaining("no command 'frobnicate'");
  }

  @Test
  void helpTextExplainsOneCommandOrListsThemAll() {
    assertThat(HelpText.of("disable")).startsWith("disable BACKEND [in VDB]\n").contains("example: disable pg2 in shop");
    assertThat(HelpText.of("show")).contains("show backends [VDB]").contains("show dumps [VDB]")
        .doesNotContain("disable BACKEND");
    String all = HelpText.of(null);
    CommandHelp.ALL.forEach(h -> assertThat(all).contains(h.syntax()));
  }
}
