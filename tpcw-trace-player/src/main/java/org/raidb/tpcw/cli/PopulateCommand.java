package org.raidb.tpcw.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.raidb.tpcw.populate.Populator;
import org.raidb.tpcw.report.ProgressBar;
import org.raidb.tpcw.schema.Scale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tpcw populate}: (re)creates the ten tables and fills them deterministically. */
@Command(
        name = "populate",
        mixinStandardHelpOptions = true,
        description =
                "Drop and create the TPC-W tables and fill them at a scale, from a fixed seed (same seed, same rows).")
final class PopulateCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Option(
            names = "--items",
            defaultValue = "1000",
            description = "Items: 1000, 10000 or 100000 in the specification (default ${DEFAULT-VALUE}).")
    int items;

    @Option(
            names = "--ebs",
            defaultValue = "10",
            description = "Emulated browsers; customers = 2880 x EBs (default ${DEFAULT-VALUE}).")
    int ebs;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Scale scale;
        try {
            scale = new Scale(items, ebs);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        Populator populator = new Populator(scale, seed);
        long begin = System.nanoTime();
        try (Connection c = connection.factory().open();
                ProgressBar bar = new ProgressBar(
                        "rows",
                        scale.expectedRows(),
                        populator.rowsDone()::get,
                        () -> 0,
                        spec.commandLine().getErr())) {
            populator.populate(c);
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        long rows = populator.rowsDone().get();
        out.printf(
                Locale.ROOT,
                "populated %s: %,d items, %,d customers, %,d rows in %.1f s (%,.0f rows/s, indexes included)%n",
                connection.url,
                scale.items(),
                scale.customers(),
                rows,
                seconds,
                rows / seconds);
        out.flush();
        return ExitCodes.OK;
    }
}
