package org.raidb.tools.console;

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

        @Override
        public List<String> dumps() {
            return List.of("nightly");
        }

        @Override
        public List<String> checkpoints() {
            return List.of("cp1", "before-upgrade");
        }
    });

    @Test
    void commandWordsFirstThenWhatEachCommandTakes() {
        assertThat(completer.candidates(List.of()))
                .containsExactly(
                        "show",
                        "watch",
                        "disable",
                        "enable",
                        "backup",
                        "restore",
                        "add",
                        "checkpoint",
                        "purge",
                        "verify",
                        "shutdown",
                        "help",
                        "exit",
                        "quit");
        assertThat(completer.candidates(List.of("show")))
                .containsExactly("virtualdatabases", "backends", "checkpoints", "dumps", "controllers", "operations");
        assertThat(completer.candidates(List.of("show", "controllers"))).containsExactly("shop", "books");
        assertThat(completer.candidates(List.of("SHOW", "backends"))).containsExactly("shop", "books");
        assertThat(completer.candidates(List.of("show", "operations"))).isEmpty();
        assertThat(completer.candidates(List.of("disable"))).containsExactly("pg1", "pg2");
        assertThat(completer.candidates(List.of("disable", "pg1"))).containsExactly("in");
        assertThat(completer.candidates(List.of("disable", "pg1", "in"))).containsExactly("shop", "books");
        assertThat(completer.candidates(List.of("watch"))).containsExactly("operation");
        assertThat(completer.candidates(List.of("watch", "operation"))).containsExactly("7");
        assertThat(completer.candidates(List.of("help", "show"))).contains("backends", "operations");
    }

    @Test
    void recoveryCommandsCompleteTheirWordsAndBackendDumpAndCheckpointNames() {
        assertThat(completer.candidates(List.of("enable"))).containsExactly("pg1", "pg2");
        assertThat(completer.candidates(List.of("enable", "pg2"))).containsExactly("in");
        assertThat(completer.candidates(List.of("enable", "pg2", "IN"))).containsExactly("shop", "books");
        assertThat(completer.candidates(List.of("enable", "pg2", "in", "shop"))).isEmpty();
        assertThat(completer.candidates(List.of("backup"))).containsExactly("pg1", "pg2");
        assertThat(completer.candidates(List.of("backup", "pg2"))).containsExactly("as", "in");
        assertThat(completer.candidates(List.of("backup", "pg2", "as"))).isEmpty();
        assertThat(completer.candidates(List.of("backup", "pg2", "as", "nightly")))
                .containsExactly("in");
        assertThat(completer.candidates(List.of("backup", "pg2", "as", "nightly", "in")))
                .containsExactly("shop", "books");
        assertThat(completer.candidates(List.of("restore"))).containsExactly("pg1", "pg2");
        assertThat(completer.candidates(List.of("restore", "pg2"))).containsExactly("from");
        assertThat(completer.candidates(List.of("restore", "pg2", "from"))).containsExactly("nightly");
        assertThat(completer.candidates(List.of("restore", "pg2", "from", "nightly")))
                .containsExactly("in");
        assertThat(completer.candidates(List.of("checkpoint"))).containsExactly("in");
        assertThat(completer.candidates(List.of("checkpoint", "cp9"))).containsExactly("in");
        assertThat(completer.candidates(List.of("checkpoint", "in"))).containsExactly("shop", "books");
        assertThat(completer.candidates(List.of("verify"))).containsExactly("shop", "books");
        assertThat(completer.candidates(List.of("verify", "shop"))).containsExactly("--repair");
        assertThat(completer.candidates(List.of("purge"))).containsExactly("log");
        assertThat(completer.candidates(List.of("purge", "log"))).containsExactly("before");
        assertThat(completer.candidates(List.of("purge", "log", "before"))).containsExactly("cp1", "before-upgrade");
        assertThat(completer.candidates(List.of("purge", "log", "before", "cp1")))
                .containsExactly("in");
        assertThat(completer.candidates(List.of("help", "add"))).containsExactly("backend");
    }

    @Test
    void addBackendOffersTheSettingsNotGivenYetWithKnownValuesWhole() {
        assertThat(completer.candidates(List.of("add"))).containsExactly("backend");
        assertThat(completer.candidates(List.of("add", "backend"))).isEmpty();
        assertThat(completer.candidates(List.of("add", "backend", "pg3")))
                .containsExactly(
                        "url=",
                        "user=",
                        "password=",
                        "from=pg1",
                        "from=pg2",
                        "backuper=pgDump",
                        "backuper=jdbcCopy",
                        "weight=",
                        "poolSize=",
                        "in");
        assertThat(completer.candidates(
                        List.of("add", "backend", "pg3", "url=jdbc:postgresql://h/shop", "FROM=pg1", "poolsize=4")))
                .containsExactly("user=", "password=", "backuper=pgDump", "backuper=jdbcCopy", "weight=", "in");
        assertThat(completer.candidates(List.of("add", "backend", "pg3", "url=jdbc:h2:mem:x", "in")))
                .containsExactly("shop", "books");
    }
}
