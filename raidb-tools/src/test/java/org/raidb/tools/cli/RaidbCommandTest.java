package org.raidb.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.raidb.controller.cli.ControllerCommand;
import org.raidb.controller.cli.RunningController;
import picocli.CommandLine;

/** The command line as a user meets it; nothing here calls System.exit or opens a port. */
class RaidbCommandTest {

    private static final String VALID = """
      <raidb>
        <controller port="0" adminPort="0" host="127.0.0.1"/>
        <virtualDatabase name="shop">
          <authentication><admin user="admin"/><virtualUser name="app"/></authentication>
          <backend name="pg1" url="jdbc:postgresql://127.0.0.1:5433/shop" user="postgres"/>
          <backend name="pg2" url="jdbc:postgresql://127.0.0.1:5434/shop" user="postgres"/>
          <raidb1/>
        </virtualDatabase>
      </raidb>
      """;

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void badConfigurationExitsWith2AndNamesTheFileAndLine() throws Exception {
        Path bad = Files.writeString(
                dir.resolve("bad.xml"), VALID.replace("<raidb1/>", "<raidb1 completion=\"sometimes\"/>"));

        int exit = run(new RaidbCommand(), "controller", "--config", bad.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .startsWith(bad + ":7:")
                .contains("attribute 'completion' must be one of first, majority, all, not 'sometimes'")
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aBackendUrlThatWouldRunCodeExitsWith2AndNamesTheFileAndLine() throws Exception {
        Path bad = Files.writeString(
                dir.resolve("bad.xml"), VALID.replace("5434/shop\"", "5434/shop?socketFactory=x.Y\""));

        int exit = run(new RaidbCommand(), "controller", "--config", bad.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .startsWith(bad + ":6:")
                .contains("<backend name=\"pg2\"> url: JDBC URL parameter 'socketFactory' is refused")
                .doesNotContain("Exception");
    }

    @Test
    void missingConfigurationFileExitsWith2() {
        Path missing = dir.resolve("missing.xml");

        int exit = run(new RaidbCommand(), "controller", "-c", missing.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).startsWith(missing + ": configuration file not found");
    }

    @Test
    void theConfigOptionIsRequired() {
        int exit = run(new RaidbCommand(), "controller");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required option: '--config=FILE'");
    }

    @Test
    void noSubcommandIsAUsageError() {
        int exit = run(new RaidbCommand());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("Missing subcommand").contains("controller");
    }

    @Test
    void helpListsTheSubcommands() {
        int exit = run(new RaidbCommand(), "--help");

        assertThat(exit).isZero();
        assertThat(out.toString())
                .contains("Usage: raidb")
                .contains("controller")
                .contains("--version");
    }

    @Test
    void aProgressIntervalBelowOneSecondIsAUsageErrorBeforeAnyConnection() {
        int exit = run(new RaidbCommand(), "console", "--port", "1", "--progress-every", "0", "-c", "show backends");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--progress-every must be at least 1 second, not 0");
    }

    @Test
    void versionNamesTheProgram() {
        int exit = run(new RaidbCommand(), "--version");

        assertThat(exit).isZero();
        assertThat(out.toString()).startsWith("raidb ");
    }

    @Test
    void startsTheControllerPrintsABannerAndWaits() throws Exception {
        Path good = Files.writeString(dir.resolve("good.xml"), VALID);
        FakeController fake = new FakeController(41234);

        int exit = run(new ControllerCommand(config -> fake.startedWith(config)), "--config", good.toString());

        assertThat(exit).isZero();
        assertThat(fake.config.virtualDatabase("shop").backends()).hasSize(2);
        assertThat(fake.awaited).isTrue();
        assertThat(out.toString().lines())
                .singleElement()
                .asString()
                .contains("listening on 127.0.0.1:41234")
                .contains("shop (raidb1, 2 backends)");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void aControllerThatCannotStartExitsWith1WithoutAStackTrace() throws Exception {
        Path good = Files.writeString(dir.resolve("good.xml"), VALID);

        int exit = run(
                new ControllerCommand(config -> {
                    throw new IllegalStateException(
                            "cannot start", new java.net.BindException("Address already in use"));
                }),
                "--config",
                good.toString());

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString().trim())
                .isEqualTo("raidb: the controller could not start: cannot start: Address already in use");
    }

    private int run(Object command, String... args) {
        CommandLine commandLine = new CommandLine(command);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    /** Records what the command did with it; "terminates" as soon as it is awaited. */
    private static final class FakeController implements RunningController {
        final int port;
        org.raidb.controller.config.RaidbConfig config;
        boolean awaited;

        FakeController(int port) {
            this.port = port;
        }

        RunningController startedWith(org.raidb.controller.config.RaidbConfig config) {
            this.config = config;
            return this;
        }

        @Override
        public int port() {
            return port;
        }

        @Override
        public void awaitTermination() {
            awaited = true;
        }

        @Override
        public void close() {}
    }
}
