package org.raidb.controller.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Tab completion: which words may come next. */
class ConsoleCompleterTest {
  private final ConsoleCompleter completer = new ConsoleCompleter(new ConsoleCompleter.Names() {
    @Override
    public List<String> virtualDatabases() {
      return List.of("shop", "books");
    }

    @Override
    public List<String> backends() {
      return List.of("pg1", "pg2");
    }

    @Override
    public List<String> operations() {
      return List.of("7");
    }
  });

  @Test
  void commandWordsFirstThenWhatEachCommandTakes() {
    assertThat(completer.candidates(List.of()))
        .containsExactly("show", "watch", "disable", "shutdown", "help", "exit", "quit");
    assertThat(completer.candidates(List.of("show")))
        .containsExactly("virtualdatabases", "backends", "checkpoints", "dumps", "operations");
    assertThat(completer.candidates(List.of("SHOW", "backends"))).containsExactly("shop", "books");
    assertThat(completer.candidates(List.of("show", "operations"))).isEmpty();
    assertThat(completer.candidates(List.of("disable"))).containsExactly("pg1", "pg2");
    assertThat(completer.candidates(List.of("disable", "pg1"))).containsExactly("in");
    assertThat(completer.candidates(List.of("disable", "pg1", "in"))).containsExactly("shop", "books");
    assertThat(completer.candidates(List.of("watch"))).containsExactly("operation");
    assertThat(completer.candidates(List.of("watch", "operation"))).containsExactly("7");
    assertThat(completer.candidates(List.of("help", "show"))).contains("backends", "operations");
  }
}
