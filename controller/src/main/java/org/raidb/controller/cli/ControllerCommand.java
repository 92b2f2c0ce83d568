package org.raidb.controller.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.raidb.controller.config.ConfigException;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.controller.config.RaidbConfig;
import org.raidb.controller.config.VirtualDatabaseConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code raidb controller --config FILE}: runs a controller until the process is stopped (Ctrl-C, SIGTERM). */
@Command(
        name = "controller",
        mixinStandardHelpOptions = true,
        versionProvider = RaidbVersion.class,
        description = "Start a controller serving the virtual databases of a configuration file.")
public final class ControllerCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(ControllerCommand.class);
    /** The configuration file is unusable; same code as picocli uses for a bad command line. */
    public static final int EXIT_BAD_CONFIGURATION = CommandLine.ExitCode.USAGE;

    public static final int EXIT_FAILURE = CommandLine.ExitCode.SOFTWARE;

    @Option(
            names = {"-c", "--config"},
            required = true,
            paramLabel = "FILE",
            description = "Configuration file (schema: config/raidb.xsd, example: config/raidb-example.xml).")
    Path config;

    @Spec
    CommandSpec spec;

    private final RunningController.Launcher launcher;

    /** Used by picocli: starts a real controller. */
    public ControllerCommand() {
        this(RunningController::start);
    }

    public ControllerCommand(RunningController.Launcher launcher) {
        this.launcher = launcher;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        RaidbConfig configuration;
        try {
            configuration = ConfigLoader.load(config);
        } catch (ConfigException e) {
            // The message already says where and what; a stack trace would only bury it.
            err.println(e.getMessage());
            err.flush();
            return EXIT_BAD_CONFIGURATION;
        }

        RunningController controller;
        try {
            controller = launcher.start(configuration);
        } catch (Exception e) {
            log.debug("controller start failed", e);
            err.println("raidb: the controller could not start: " + causes(e));
            err.flush();
            return EXIT_FAILURE;
        }

        // Ctrl-C and SIGTERM close the controller cleanly; awaitTermination then returns.
        Thread shutdownHook = new Thread(controller::close, "raidb-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        PrintWriter out = spec.commandLine().getOut();
        out.println(banner(configuration, controller.port()));
        out.flush();
        try {
            controller.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            controller.close();
        } finally {
            removeIfNotShuttingDown(shutdownHook);
        }
        return 0;
    }

    /** One line: where clients connect and what they find there. */
    static String banner(RaidbConfig configuration, int port) {
        String databases = configuration.virtualDatabases().stream()
                .map(ControllerCommand::describe)
                .collect(Collectors.joining(", "));
        return "RAIDb controller " + RaidbVersion.version() + " listening on "
                + configuration.controller().host() + ":" + port + ", virtual databases: " + databases;
    }

    private static String describe(VirtualDatabaseConfig vdb) {
        int backends = vdb.backends().size();
        return vdb.name() + " (" + vdb.replication().level() + ", " + backends
                + (backends == 1 ? " backend)" : " backends)");
    }

    /** "message: cause's message: ..." without repeats, since wrapped exceptions often echo their cause. */
    private static String causes(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        return text.toString();
    }

    private static void removeIfNotShuttingDown(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is what ended awaitTermination; the JVM is exiting anyway.
        }
    }

    /**
     * {@code bin/raidb controller}: the controller alone, from the controller's own jar, whose class path
     * holds none of the tools (demo, bench, console, embedded PostgreSQL).
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ControllerCommand())
                .setCommandName("raidb controller")
                .execute(args));
    }
}
