package org.raidb.tools.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One reading of the CPU clocks the benchmark can see: every thread of this JVM (client threads and
 * the in-process controller's threads told apart by name), the JVM as a whole, the PostgreSQL
 * servers' processes, pgpool-II's when it runs, controllers running as processes of their own
 * ({@code controllerProcesses}: the sum over their JVMs, every thread, user and kernel time of
 * /proc/PID/stat), and the whole machine (which includes whatever else runs on it). Two readings
 * make a {@link CpuUse}. Linux only for PostgreSQL and the machine; elsewhere those read as -1.
 */
record CpuSample(
        long wallNanos,
        long processCpuNanos,
        Map<Long, ThreadCpu> threads,
        long postgresCpuNanos,
        long machineBusyNanos,
        long pgpoolCpuNanos,
        ThreadCpu controllerProcesses) {

    /** No controller process of its own: the controller, if any, runs in this JVM. */
    CpuSample(
            long wallNanos,
            long processCpuNanos,
            Map<Long, ThreadCpu> threads,
            long postgresCpuNanos,
            long machineBusyNanos,
            long pgpoolCpuNanos) {
        this(
                wallNanos,
                processCpuNanos,
                threads,
                postgresCpuNanos,
                machineBusyNanos,
                pgpoolCpuNanos,
                new ThreadCpu(Role.CONTROLLER, 0));
    }

    /** Without pgpool-II. */
    CpuSample(
            long wallNanos,
            long processCpuNanos,
            Map<Long, ThreadCpu> threads,
            long postgresCpuNanos,
            long machineBusyNanos) {
        this(wallNanos, processCpuNanos, threads, postgresCpuNanos, machineBusyNanos, 0);
    }

    /**
     * A thread's CPU time and role at the time of the reading, and the part of it spent in user mode
     * (the rest is the kernel's work for it: socket calls, waking and parking threads).
     */
    record ThreadCpu(Role role, long cpuNanos, long userNanos) {
        /** A reading without the user-mode part: all of it counted as user time. */
        ThreadCpu(Role role, long cpuNanos) {
            this(role, cpuNanos, cpuNanos);
        }

        long kernelNanos() {
            return Math.max(0, cpuNanos - userNanos);
        }
    }

    /** Who a thread works for. */
    enum Role {
        /** The benchmark's client threads: the application, with its JDBC driver. */
        CLIENT,
        /** The in-process controller: sessions, backend lanes, pools, the parser. */
        CONTROLLER,
        /** Anything else in the JVM: garbage collection, JIT compilation, JFR, the main thread. */
        OTHER;

        static Role of(String threadName) {
            if (threadName.startsWith(ClosedLoopRun.CLIENT_THREAD_PREFIX)) {
                return CLIENT;
            }
            return threadName.startsWith("raidb-") ? CONTROLLER : OTHER;
        }
    }

    /** Clock ticks per second of /proc figures ({@code getconf CLK_TCK}; 100 on every Linux we know). */
    private static final long TICKS_PER_SECOND = 100;

    private static final long NANOS_PER_TICK = 1_000_000_000L / TICKS_PER_SECOND;

    static CpuSample take(OptionalLong postmasterPid) {
        return take(postmasterPid.isPresent() ? List.of(postmasterPid.getAsLong()) : List.of(), OptionalLong.empty());
    }

    /** PostgreSQL's time is that of every server in {@code postmasterPids}; pgpool's that of its process tree, if any. */
    static CpuSample take(List<Long> postmasterPids, OptionalLong pgpoolPid) {
        return take(postmasterPids, pgpoolPid, List.of());
    }

    /** As {@link #take(List, OptionalLong)}, and the time of the controller processes {@code controllerPids}. */
    static CpuSample take(List<Long> postmasterPids, OptionalLong pgpoolPid, List<Long> controllerPids) {
        long controllerTicks = 0;
        long controllerUserTicks = 0;
        for (long pid : controllerPids) {
            long[] times = processTimes(pid);
            controllerTicks += Math.max(0, times[0] + times[1]);
            controllerUserTicks += Math.max(0, times[0]);
        }
        ThreadCpu controllers =
                new ThreadCpu(Role.CONTROLLER, controllerTicks * NANOS_PER_TICK, controllerUserTicks * NANOS_PER_TICK);
        long wall = System.nanoTime();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<Long, ThreadCpu> threads = new HashMap<>();
        for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (info != null) {
                long cpu = mx.getThreadCpuTime(info.getThreadId());
                long user = mx.getThreadUserTime(info.getThreadId());
                if (cpu >= 0) {
                    threads.put(
                            info.getThreadId(),
                            new ThreadCpu(Role.of(info.getThreadName()), cpu, user >= 0 ? user : cpu));
                }
            }
        }
        long postgres = postmasterPids.isEmpty() ? -1 : 0;
        for (long pid : postmasterPids) {
            long cpu = readPostgresCpuNanos(pid);
            postgres = postgres < 0 || cpu < 0 ? -1 : postgres + cpu;
        }
        return new CpuSample(
                wall,
                readProcessCpuNanos(),
                threads,
                postgres,
                readMachineBusyNanos(),
                pgpoolPid.isPresent() ? Math.max(0, readPostgresCpuNanos(pgpoolPid.getAsLong())) : 0,
                controllers);
    }

    private static long readProcessCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** User and system time of the postmaster and all its children (one process per connection). */
    static long readPostgresCpuNanos(long postmasterPid) {
        long ticks = processTicks(postmasterPid);
        if (ticks < 0) {
            return -1;
        }
        ProcessHandle postmaster = ProcessHandle.of(postmasterPid).orElse(null);
        if (postmaster != null) {
            ticks += postmaster
                    .descendants()
                    .mapToLong(p -> Math.max(0, processTicks(p.pid())))
                    .sum();
        }
        return ticks * NANOS_PER_TICK;
    }

    /** utime + stime of /proc/PID/stat, -1 when it cannot be read. */
    private static long processTicks(long pid) {
        long[] times = processTimes(pid);
        return times[0] < 0 ? -1 : times[0] + times[1];
    }

    /**
     * {utime, stime} of /proc/PID/stat (fields 14 and 15, counted after the command in parentheses):
     * every thread of the process, the ended ones included; {-1, -1} when it cannot be read.
     */
    private static long[] processTimes(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", -1);
            return new long[] {Long.parseLong(fields[11]), Long.parseLong(fields[12])}; // fields[0] is field 3
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1}; // not Linux, or the process ended
        }
    }

    /** Busy time of all CPUs of the machine: the first line of /proc/stat without idle and iowait. */
    private static long readMachineBusyNanos() {
        try {
            String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] f = first.trim().split("\\s+", -1);
            long busy = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                if (i != 4 && i != 5) { // user nice system [idle iowait] irq softirq steal
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
