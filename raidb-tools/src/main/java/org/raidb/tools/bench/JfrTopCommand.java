package org.raidb.tools.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code raidb bench jfr-top FILE}: the hot methods of the controller's threads in a recording made
 * by {@code raidb bench overhead --jfr}. Clients share the JVM with the controller, so only threads
 * whose names start with the given prefixes are counted.
 */
@Command(
        name = "jfr-top",
        description =
                "Hot methods, waits, parks, socket traffic and allocations of the controller threads in a JFR recording.")
public final class JfrTopCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help and exit.")
    boolean help;

    @Parameters(
            arity = "1..*",
            paramLabel = "FILE",
            description = "JFR recordings (e.g. written by bench overhead --jfr).")
    List<Path> files;

    @Option(
            names = "--thread-prefix",
            paramLabel = "PREFIX",
            defaultValue = "raidb-session-,raidb-" + BenchDatabase.NAME + "-backend-",
            split = ",",
            description = "Threads counted: names starting with one of these (default ${DEFAULT-VALUE}).")
    List<String> threadPrefixes;

    @Option(names = "--top", defaultValue = "25", description = "Lines per list (default ${DEFAULT-VALUE}).")
    int top;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        for (Path file : files) {
            report(file, out);
        }
        out.flush();
        return 0;
    }

    private void report(Path file, PrintWriter out) throws IOException {
        Tally self = new Tally();
        Tally inclusive = new Tally();
        Tally waits = new Tally();
        Tally parks = new Tally();
        Tally socketReads = new Tally();
        Tally socketWrites = new Tally();
        Tally allocations = new Tally();
        Set<String> threads = new HashSet<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String thread = threadName(e);
            if (thread == null || threadPrefixes.stream().noneMatch(thread::startsWith)) {
                continue;
            }
            threads.add(thread);
            switch (e.getEventType().getName()) {
                case "jdk.ExecutionSample" -> countSample(e.getStackTrace(), self, inclusive);
                case "jdk.NativeMethodSample" -> countWait(e.getStackTrace(), waits, 1);
                case "jdk.ThreadPark", "jdk.JavaMonitorEnter" ->
                    countWait(e.getStackTrace(), parks, e.getDuration().toMillis());
                case "jdk.SocketRead" -> countSocket(e, thread, socketReads);
                case "jdk.SocketWrite" -> countSocket(e, thread, socketWrites);
                case "jdk.ObjectAllocationSample" -> countAllocation(e, allocations);
                default -> {}
            }
        }
        out.println("== " + file + ": " + threads.size() + " controller threads (" + String.join(", ", threadPrefixes)
                + "*)");
        print(out, "Running Java, by method on top of the stack (" + self.total() + " samples)", self);
        print(out, "Running Java, by method anywhere on the stack (inclusive)", inclusive);
        print(
                out,
                "Blocked in native code (socket waits), by the nearest RAIDb, pgjdbc or HikariCP frame ("
                        + waits.total() + " samples)",
                waits);
        print(
                out,
                "Parked on a lock, queue or monitor (JFR records parks of 10 ms or more), by the nearest RAIDb, pgjdbc "
                        + "or HikariCP frame, in ms (" + parks.total() + " ms)",
                parks);
        print(out, "Socket reads by thread kind and peer port (" + socketReads.total() + " reads)", socketReads);
        print(out, "Socket writes by thread kind and peer port (" + socketWrites.total() + " writes)", socketWrites);
        print(out, "Allocation (sampled weight in bytes) by allocating method", allocations);
    }

    private static String threadName(RecordedEvent e) {
        if (e.hasField("sampledThread")) {
            RecordedThread t = e.getThread("sampledThread");
            return t == null ? null : t.getJavaName();
        }
        if (e.hasField("eventThread")) {
            RecordedThread t = e.getThread("eventThread");
            return t == null ? null : t.getJavaName();
        }
        return null;
    }

    private static void countSample(RecordedStackTrace stack, Tally self, Tally inclusive) {
        if (stack == null || stack.getFrames().isEmpty()) {
            return;
        }
        List<RecordedFrame> frames = stack.getFrames();
        self.add(method(frames.get(0)), 1);
        self.addToTotal(1);
        inclusive.addToTotal(1);
        Set<String> seen = new HashSet<>(); // a recursive method counts once per sample
        for (RecordedFrame f : frames) {
            String m = method(f);
            if (seen.add(m)) {
                inclusive.add(m, 1);
            }
        }
    }

    /** Where a blocked thread waits, named by the code that asked to wait rather than by the JDK's socket internals. */
    private static void countWait(RecordedStackTrace stack, Tally waits, long weight) {
        if (stack == null) {
            return;
        }
        waits.addToTotal(weight);
        for (RecordedFrame f : stack.getFrames()) {
            String m = method(f);
            if (m.startsWith("org.raidb.") || m.startsWith("org.postgresql.") || m.startsWith("com.zaxxer.")) {
                waits.add(m, weight);
                return;
            }
        }
        waits.add(stack.getFrames().isEmpty() ? "?" : method(stack.getFrames().get(0)), weight);
    }

    private static void countSocket(RecordedEvent e, String thread, Tally sockets) {
        String kind = thread.replaceAll("\\d+$", "N");
        sockets.add(kind + " <-> port " + e.getInt("port"), 1);
        sockets.addToTotal(1);
    }

    private static void countAllocation(RecordedEvent e, Tally allocations) {
        RecordedStackTrace stack = e.getStackTrace();
        long weight = e.getLong("weight");
        allocations.addToTotal(weight);
        String site = stack == null || stack.getFrames().isEmpty()
                ? "?"
                : method(stack.getFrames().get(0));
        allocations.add(site + " (" + e.getClass("objectClass").getName() + ")", weight);
    }

    private static String method(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    private void print(PrintWriter out, String title, Tally tally) {
        out.println("\n-- " + title);
        tally.top(top).forEach(out::println);
    }
}
