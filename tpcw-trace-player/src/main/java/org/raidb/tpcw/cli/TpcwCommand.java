package org.raidb.tpcw.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code raidb tpcw}: populate, record, play, bench. Every failure is one line on stderr and a
 * non-zero exit (2 for a bad command line, 1 otherwise); stack traces only with {@code
 * -Draidb.tpcw.debug=true}.
 */
@Command(
        name = "tpcw",
        mixinStandardHelpOptions = true,
        version = "raidb tpcw (TPC-W schema " + org.raidb.tpcw.schema.TpcwSchema.VERSION + ")",
        description = "TPC-W for RAIDb: populate a database, record a trace, replay it with many sessions, benchmark.",
        subcommands = {
            PopulateCommand.class,
            RecordCommand.class,
            PlayCommand.class,
            BenchCommand.class,
            ChecksumCommand.class,
            CommandLine.HelpCommand.class
        })
public final class TpcwCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(
                spec.commandLine(), "Missing subcommand: populate, record, play, bench or checksum?");
    }

    /** The command line with the one-line error handling; tests call it with their own out and err. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new TpcwCommand());
        cli.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println("tpcw: " + e.getMessage() + " (see --help)");
            return ExitCodes.USAGE;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (Boolean.getBoolean("raidb.tpcw.debug")) {
                e.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().println("tpcw: " + OneLine.of(e));
            return ExitCodes.FAILURE;
        });
        return cli;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
