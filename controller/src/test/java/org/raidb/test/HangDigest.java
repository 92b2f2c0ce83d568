package org.raidb.test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.PreInterruptCallback;
import org.junit.jupiter.api.extension.PreInterruptContext;

/**
 * When a test times out, writes a short account of where RAIDb's threads wait, with the owner of
 * each lock they wait for, to {@code target/hang-digest.txt}; CI prints that file. JUnit's own thread
 * dump is complete but far too long for a CI log, and it does not say who holds a lock. Registered
 * for every test by service loading.
 */
public final class HangDigest implements PreInterruptCallback {
    private static final int MAX_FRAMES = 14;
    private static final Path FILE = Path.of("target", "hang-digest.txt");

    @Override
    public void beforeThreadInterrupt(PreInterruptContext context, ExtensionContext extension) {
        StringBuilder out = new StringBuilder();
        out.append("=== ").append(extension.getUniqueId()).append(" timed out; RAIDb threads:\n");
        Map<String, List<String>> byStack = new LinkedHashMap<>();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            String stack = t.getThreadId() == Thread.currentThread().getId() ? null : stackOf(t);
            if (stack != null) {
                byStack.computeIfAbsent(stack, k -> new ArrayList<>()).add(headerOf(t));
            }
        }
        byStack.forEach((stack, threads) -> {
            out.append(threads.get(0));
            if (threads.size() > 1) {
                out.append("  (and ").append(threads.size() - 1).append(" more with this stack)");
            }
            out.append('\n').append(stack);
        });
        System.out.print(out);
        try {
            Files.writeString(FILE, out, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.out.println("hang digest not written to " + FILE.toAbsolutePath() + ": " + e);
        }
    }

    private static String headerOf(ThreadInfo t) {
        String header = "\"" + t.getThreadName() + "\" " + t.getThreadState();
        if (t.getLockName() != null) {
            header += " on " + t.getLockName();
        }
        if (t.getLockOwnerName() != null) {
            header += " owned by \"" + t.getLockOwnerName() + "\"";
        }
        return header;
    }

    /** The top frames and RAIDb's own; null for a thread that never passes through RAIDb code. */
    private static String stackOf(ThreadInfo t) {
        StackTraceElement[] frames = t.getStackTrace();
        boolean ours = false;
        for (StackTraceElement f : frames) {
            ours |= f.getClassName().startsWith("org.raidb.");
        }
        if (!ours) {
            return null;
        }
        StringBuilder s = new StringBuilder();
        int shown = 0;
        for (int i = 0; i < frames.length && shown < MAX_FRAMES; i++) {
            if (i < 3 || frames[i].getClassName().startsWith("org.raidb.")) {
                s.append("    ").append(frames[i]).append('\n');
                shown++;
            }
        }
        return s.toString();
    }
}
