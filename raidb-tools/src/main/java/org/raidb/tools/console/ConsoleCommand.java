package org.raidb.tools.console;

import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.admin.client.TrustedCertificates;
import org.raidb.controller.files.PrivateFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code raidb console}: administers a controller through its admin API, interactively (history, Tab completion,
 * {@code help}) or one command at a time with {@code -c} for scripts. Exit statuses: see {@link ConsoleExit}.
 */
@Command(
        name = "console",
        mixinStandardHelpOptions = true,
        description = "Administer a running controller through its admin API: interactively, or one command with -c.",
        footer = {
            "",
            "Exit status with -c: 0 done, 1 the command failed, 2 unknown command or bad usage, "
                    + "3 controller unreachable or credentials refused."
        })
public final class ConsoleCommand implements Callable<Integer> {
    static final String PASSWORD_VARIABLE = "RAIDB_ADMIN_PASSWORD";
    private static final Duration WATCH_INTERVAL = Duration.ofMillis(500);

    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "The admin API's address (default http://HOST:PORT, https://HOST:PORT with --cacert).")
    URI url;

    @Option(
            names = "--cacert",
            paramLabel = "FILE",
            description = "Trust this certificate (PEM, as raidb tls-cert writes it) for an https:// admin API: a"
                    + " controller with <tls>. Without it, the JVM's trust store.")
    Path caCertificate;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Controller host (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "25380", description = "Controller adminPort (default ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = {"-u", "--user"},
            defaultValue = "admin",
            description = "Admin user (default ${DEFAULT-VALUE}).")
    String user;

    @Option(
            names = {"-p", "--password"},
            description = "Admin password; default: environment variable " + PASSWORD_VARIABLE
                    + ", else asked for in interactive mode.")
    String password;

    @Option(
            names = {"-c", "--command"},
            paramLabel = "COMMAND",
            description = "Run one console command, e.g. \"show backends\", and exit.")
    String command;

    @Option(
            names = {"-q", "--quiet"},
            description = "No progress lines while enable, backup, restore or add backend run; their last line only.")
    boolean quiet;

    @Option(
            names = "--progress-every",
            paramLabel = "SECONDS",
            defaultValue = "5",
            description = "Without a terminal, a progress line at most every SECONDS (default ${DEFAULT-VALUE});"
                    + " on a terminal the line is redrawn in place.")
    int progressEvery;

    @Spec
    CommandSpec spec;

    private final UnaryOperator<String> environment;
    private final BooleanSupplier outputIsTerminal;

    public ConsoleCommand() {
        this(System::getenv, ConsoleCommand::hasTerminal);
    }

    /**
     * Whether input and output are a terminal: up to JDK 21 that is when a {@link Console} exists; from JDK 22 one
     * always does, and says so itself (a method Java 17 cannot name). With -c in a script, or piped, there is none.
     */
    // SystemConsoleNull warns of JDK 22's always-present console, which the isTerminal() call below handles.
    @SuppressWarnings("SystemConsoleNull")
    private static boolean hasTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        if (Runtime.version().feature() < 22) {
            return true;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return false; // cannot tell: plain lines are readable everywhere
        }
    }

    ConsoleCommand(UnaryOperator<String> environment, BooleanSupplier outputIsTerminal) {
        this.environment = environment;
        this.outputIsTerminal = outputIsTerminal;
    }

    @Override
    public Integer call() throws IOException {
        URI base =
                url != null ? url : URI.create((caCertificate != null ? "https" : "http") + "://" + host + ":" + port);
        SSLContext trust = trust(base);
        String secret = password != null ? password : environment.apply(PASSWORD_VARIABLE);
        if (progressEvery < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--progress-every must be at least 1 second, not " + progressEvery);
        }
        if (command != null) {
            PrintWriter out = spec.commandLine().getOut();
            return new ConsoleRunner(
                            new AdminClient(base, user, secret, trust),
                            out,
                            spec.commandLine().getErr(),
                            WATCH_INTERVAL,
                            progressPrinter(out, outputIsTerminal.getAsBoolean()))
                    .run(command);
        }
        return interactive(base, secret, trust);
    }

    /** The certificates --cacert names, or null for the JVM's trust store. */
    private SSLContext trust(URI base) {
        if (caCertificate == null) {
            return null;
        }
        if (!"https".equals(base.getScheme())) {
            throw new ParameterException(
                    spec.commandLine(), "--cacert is for an https:// admin API, and --url is " + base);
        }
        try {
            return TrustedCertificates.of(caCertificate);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--cacert " + caCertificate + ": " + e.getMessage());
        }
    }

    private int interactive(URI base, String secret, SSLContext trust) throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
            PrintWriter out = terminal.writer();
            String pass = secret != null ? secret : askPassword(terminal);
            if (pass == null) {
                return ConsoleExit.OK;
            }
            AdminClient client = new AdminClient(base, user, pass, trust);
            // A dumb terminal (input or output not a terminal) cannot redraw a line.
            boolean redraws = !terminal.getType().startsWith(Terminal.TYPE_DUMB);
            ConsoleRunner runner = new ConsoleRunner(client, out, out, WATCH_INTERVAL, progressPrinter(out, redraws));
            // Fail now, not at the first command, when there is no controller or the password is wrong.
            int probe = runner.run("show virtualdatabases");
            if (probe != ConsoleExit.OK) {
                return probe;
            }
            Path history = Path.of(System.getProperty("user.home"), ".raidb_console_history");
            // The history holds commands such as "add backend … password=…": the user's eyes only. JLine appends to
            // an existing file and replaces it with a private temporary one, so creating it private keeps it so.
            PrivateFiles.ensurePrivateFile(history);
            LineReader reader = LineReaderBuilder.builder()
                    .terminal(terminal)
                    .appName("raidb")
                    .completer(new ConsoleCompleter(ConsoleCompleter.fromApi(client)))
                    .variable(LineReader.HISTORY_FILE, history)
                    .build();
            out.println("Connected to " + base + " as " + user + ". Type 'help' for the commands, Tab to complete.");
            // Ctrl-C while a command runs (watch) interrupts it; while typing, JLine turns it into
            // UserInterruptException.
            Thread console = Thread.currentThread();
            terminal.handle(Terminal.Signal.INT, signal -> console.interrupt());
            while (true) {
                String line;
                try {
                    line = reader.readLine("raidb> ");
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    return ConsoleExit.OK;
                }
                if (isExit(line)) {
                    return ConsoleExit.OK;
                }
                if (runner.run(line) == ConsoleExit.NO_CONNECTION) {
                    out.println("(the controller may have stopped; 'exit' leaves the console)");
                }
                Thread.interrupted(); // a Ctrl-C that came after the command ended must not cut the next one
            }
        }
    }

    private ProgressPrinter progressPrinter(PrintWriter out, boolean terminal) {
        ProgressPrinter.Style style = quiet
                ? ProgressPrinter.Style.QUIET
                : terminal ? ProgressPrinter.Style.TERMINAL : ProgressPrinter.Style.PLAIN;
        return new ProgressPrinter(out, style, Duration.ofSeconds(progressEvery), Clock.systemUTC());
    }

    private static boolean isExit(String line) {
        try {
            return ConsoleGrammar.parse(line) instanceof ConsoleAction.Exit;
        } catch (ConsoleUsageException e) {
            return false;
        }
    }

    private String askPassword(Terminal terminal) {
        LineReader reader = LineReaderBuilder.builder().terminal(terminal).build();
        try {
            return reader.readLine("Password for " + user + ": ", '*');
        } catch (UserInterruptException | EndOfFileException e) {
            return null;
        }
    }
}
