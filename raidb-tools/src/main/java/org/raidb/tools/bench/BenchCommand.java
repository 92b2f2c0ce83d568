package org.raidb.tools.bench;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code raidb bench}: benchmarks that print their figures next to plain pgjdbc's, measured in the same run. */
@Command(
        name = "bench",
        description = "Benchmarks: RAIDb against plain pgjdbc, measured in the same run.",
        subcommands = {
            OverheadCommand.class,
            GroupCommand.class,
            RecoveryLogCommand.class,
            JfrTopCommand.class,
            TlsBenchCommand.class
        })
public final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing benchmark: which one should run?");
    }
}
