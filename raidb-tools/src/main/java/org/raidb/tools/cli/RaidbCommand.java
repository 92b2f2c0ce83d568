package org.raidb.tools.cli;

import java.util.concurrent.Callable;
import org.raidb.controller.cli.ControllerCommand;
import org.raidb.controller.cli.RaidbVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code raidb} command (bin/raidb): one subcommand per tool. Exit codes: 0 success, 1 failure while running,
 * 2 bad command line or bad configuration file.
 */
@Command(
        name = "raidb",
        mixinStandardHelpOptions = true,
        versionProvider = RaidbVersion.class,
        description = "RAIDb: Redundant Array of Inexpensive Databases, a JDBC clustering middleware.",
        subcommands = {
            ControllerCommand.class,
            DemoCommand.class,
            BackendsCommand.class,
            org.raidb.tools.bench.BenchCommand.class,
            org.raidb.tools.console.ConsoleCommand.class,
            org.raidb.tools.tls.TlsCertCommand.class,
            CommandLine.HelpCommand.class
        })
public final class RaidbCommand implements Callable<Integer> {

    static final int EXIT_BAD_CONFIGURATION = ControllerCommand.EXIT_BAD_CONFIGURATION;
    static final int EXIT_FAILURE = ControllerCommand.EXIT_FAILURE;

    @Spec
    CommandSpec spec;

    /** {@code raidb} alone does nothing useful: say so and show the subcommands. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: which tool should run?");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new RaidbCommand()).execute(args));
    }
}
