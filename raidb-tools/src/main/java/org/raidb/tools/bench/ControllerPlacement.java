package org.raidb.tools.bench;

import java.util.Locale;

/**
 * Where {@code bench group}'s controllers run: in the benchmark's JVM (the default), or each in a JVM
 * of its own placed in a cgroup capped at {@code cpus} CPUs ({@code --controller-cpu}), as one
 * machine per controller would give each its own CPU.
 *
 * @param cpus 0 in-process; else the cap asked for each controller process
 * @param capStatus whether and how the cap was applied ({@link CpuCap#status()}), "" in-process
 */
record ControllerPlacement(double cpus, String capStatus) {
    static final ControllerPlacement IN_PROCESS = new ControllerPlacement(0, "");

    boolean forked() {
        return cpus > 0;
    }

    boolean capped() {
        return capStatus.startsWith("applied");
    }

    /** What the verdicts of the targets add: how the controllers ran, when not in-process. */
    String verdictNote() {
        if (!forked()) {
            return "";
        }
        return capped()
                ? String.format(Locale.ROOT, ", controllers capped at %.2f CPU each, a JVM each", cpus)
                : ", controllers a JVM each but NOT capped (" + capStatus + ")";
    }

    /** How the controllers ran, for the report's description of the run. */
    String describe() {
        if (!forked()) {
            return "in-process (in the benchmark's JVM, sharing the machine's cores)";
        }
        return String.format(
                Locale.ROOT,
                "each a JVM of its own (org.raidb.controller.cli.ControllerCommand, the configuration the in-process "
                        + "setup uses) in a cgroup of its own at %.2f CPU: cap %s; \"controller µs/op\" is the whole "
                        + "controller process's CPU (/proc/PID/stat utime+stime: JGroups, GC and JIT included)",
                cpus,
                capStatus);
    }
}
