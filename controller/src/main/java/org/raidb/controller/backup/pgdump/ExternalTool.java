package org.raidb.controller.backup.pgdump;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.raidb.controller.backup.BackupException;

/**
 * Runs pg_dump or pg_restore as a child process: environment given (the password travels there),
 * stderr read line by line as it comes (verbose progress, errors), stdout captured as text.
 */
final class ExternalTool {

    /** Lines of the tool's own words that an error message quotes at most. */
    private static final int QUOTED_LINES = 12;

    private static final long GRACE_SECONDS = 5;

    private final Path executable;

    ExternalTool(Path executable) {
        this.executable = executable;
    }

    String name() {
        return executable.getFileName().toString();
    }

    /** What the caller does while the tool goes on, once it has got somewhere. */
    @FunctionalInterface
    interface Milestone {
        void reached() throws SQLException;
    }

    /** What a finished run printed and how it exited. */
    record Outcome(int exitCode, String stdout, List<String> stderr) {}

    /**
     * Runs the tool with {@code arguments} and waits for it; every stderr line goes to {@code
     * stderrLines} as well as into the outcome. Interrupting the calling thread kills the tool.
     */
    Outcome run(List<String> arguments, Map<String, String> environment, Consumer<String> stderrLines)
            throws SQLException {
        return run(arguments, environment, stderrLines, line -> false, () -> {});
    }

    /**
     * Runs the tool as {@link #run(List, Map, Consumer)} does, and runs {@code atMilestone} on the calling thread
     * once the tool has printed a stderr line that {@code milestone} accepts, or once it has exited without
     * printing one; the tool goes on meanwhile. If {@code atMilestone} throws, the tool is stopped.
     */
    Outcome run(
            List<String> arguments,
            Map<String, String> environment,
            Consumer<String> stderrLines,
            Predicate<String> milestone,
            Milestone atMilestone)
            throws SQLException {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw BackupException.io("cannot run " + executable + " (check that it is installed and executable)", e);
        }
        CountDownLatch reached = new CountDownLatch(1);
        List<String> stderr = new ArrayList<>();
        Thread stderrReader = daemon(
                () -> readLines(process.getErrorStream(), line -> {
                    synchronized (stderr) {
                        stderr.add(line);
                    }
                    if (milestone.test(line)) {
                        reached.countDown();
                    }
                    stderrLines.accept(line);
                }),
                "stderr");
        // Read while the calling thread waits for the milestone: a tool blocked on a full stdout pipe would not get
        // there.
        FutureTask<String> stdout =
                new FutureTask<>(() -> new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        Thread stdoutReader = daemon(stdout, "stdout");
        var unused = process.onExit().thenRun(reached::countDown); // a tool that never prints the milestone
        try {
            reached.await();
            atMilestone.reached();
            int exit = process.waitFor();
            stderrReader.join();
            stdoutReader.join();
            synchronized (stderr) {
                return new Outcome(exit, stdout.get(), List.copyOf(stderr));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(process);
            throw new BackupException(name() + " was interrupted and stopped", BackupException.IO_FAILURE, e);
        } catch (ExecutionException e) {
            kill(process);
            throw BackupException.io("lost the output of " + name(), e.getCause());
        } catch (SQLException | RuntimeException e) {
            kill(process); // atMilestone failed
            throw e;
        }
    }

    private Thread daemon(Runnable task, String stream) {
        Thread thread = new Thread(task, name() + "-" + stream);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * The error for a run that exited non-zero: the tool's own error lines, from the first "error:" on
     * (or its last lines when it printed none), then {@code advice}.
     */
    BackupException failure(Outcome outcome, String what, String advice) {
        List<String> lines = outcome.stderr();
        int first = firstError(lines);
        if (first < 0) {
            first = Math.max(0, lines.size() - QUOTED_LINES);
        }
        List<String> quoted = lines.subList(first, Math.min(lines.size(), first + QUOTED_LINES));
        String said = quoted.isEmpty()
                ? "(no message)"
                : String.join(" / ", quoted.stream().map(String::strip).toList());
        return new BackupException(
                name() + " failed " + what + " (exit code " + outcome.exitCode() + "): " + said + ". " + advice,
                BackupException.IO_FAILURE);
    }

    private static int firstError(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("error:")) {
                return i;
            }
        }
        return -1;
    }

    /** Reads to the end even if {@code sink} throws: a tool blocked on a full stderr pipe would never exit. */
    private static void readLines(InputStream stream, Consumer<String> sink) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                try {
                    sink.accept(line);
                } catch (RuntimeException e) {
                    // a failing progress listener must not stall the tool; the line is already kept
                }
            }
        } catch (IOException e) {
            // the stream broke because the tool was killed: the outcome says what happened
        }
    }

    private static void kill(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
