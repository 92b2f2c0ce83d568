package org.raidb.tools.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** The machine figures were measured on, as recorded next to them. */
record Machine(int cores, long memoryBytes, String kernel, String cpu, String java) {

    static Machine current() {
        return new Machine(
                Runtime.getRuntime().availableProcessors(),
                physicalMemory(),
                unameSr(),
                cpuModel(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    }

    String describe() {
        return String.format(
                Locale.ROOT,
                "%d cores (%s), %.1f GiB, %s, %s",
                cores,
                cpu,
                memoryBytes / (double) (1L << 30),
                kernel,
                java);
    }

    private static long physicalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return -1;
    }

    /** {@code uname -sr}, or what Java knows when there is no uname. */
    private static String unameSr() {
        try {
            Process p =
                    new ProcessBuilder("uname", "-sr").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty()) {
                return out;
            }
        } catch (IOException e) {
            // no uname on this system
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    /** The CPU model from /proc/cpuinfo on Linux; the architecture elsewhere. */
    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }
}
