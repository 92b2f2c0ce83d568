package org.raidb.tools.bench;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What a measured window cost in CPU, per operation and by who spent it (microseconds; pgpool-II's
 * processes apart from PostgreSQL's), and how many
 * cores were busy meanwhile: those of this run (the benchmark's JVM and PostgreSQL) and those of the
 * whole machine, other people's builds included. When the machine is busy on all its cores, the
 * throughput of a side is its cores divided by its CPU per operation, so the ratio of CPU per
 * operation predicts the ratio of throughput.
 *
 * <p>A figure is -1 where it could not be read (PostgreSQL and the machine outside Linux).
 *
 * <p>{@code controllerKernelMicrosPerOp} is the part of the controller's CPU the kernel spent for its
 * threads (system time): socket reads and writes to clients and backends, threads woken and parked.
 * It shows how much of the controller's cost is its Java code and how much the hops it makes.
 */
record CpuUse(
        double clientMicrosPerOp,
        double controllerMicrosPerOp,
        double otherJvmMicrosPerOp,
        double postgresMicrosPerOp,
        double runCores,
        double machineBusyCores,
        double pgpoolMicrosPerOp,
        double controllerKernelMicrosPerOp) {

    static CpuUse between(CpuSample begin, CpuSample end, long operations) {
        Map<CpuSample.Role, Long> byRole = new EnumMap<>(CpuSample.Role.class);
        long controllerKernel = 0;
        for (Map.Entry<Long, CpuSample.ThreadCpu> e : end.threads().entrySet()) {
            CpuSample.ThreadCpu t = e.getValue();
            CpuSample.ThreadCpu before = begin.threads().get(e.getKey());
            byRole.merge(t.role(), t.cpuNanos() - (before == null ? 0 : before.cpuNanos()), Long::sum);
            if (t.role() == CpuSample.Role.CONTROLLER) {
                controllerKernel += t.kernelNanos() - (before == null ? 0 : before.kernelNanos());
            }
        }
        long client = byRole.getOrDefault(CpuSample.Role.CLIENT, 0L);
        long inProcessController = byRole.getOrDefault(CpuSample.Role.CONTROLLER, 0L);
        // Controllers in processes of their own: the whole process, JGroups, GC and JIT included.
        long forked = end.controllerProcesses().cpuNanos()
                - begin.controllerProcesses().cpuNanos();
        controllerKernel += end.controllerProcesses().kernelNanos()
                - begin.controllerProcesses().kernelNanos();
        long controller = inProcessController + forked;
        long process = end.processCpuNanos() - begin.processCpuNanos();
        long postgres = begin.postgresCpuNanos() < 0 || end.postgresCpuNanos() < 0
                ? -1
                : end.postgresCpuNanos() - begin.postgresCpuNanos();
        long machine = begin.machineBusyNanos() < 0 ? -1 : end.machineBusyNanos() - begin.machineBusyNanos();
        long pgpool = Math.max(0, end.pgpoolCpuNanos() - begin.pgpoolCpuNanos());
        double wall = end.wallNanos() - begin.wallNanos();
        double ops = Math.max(1, operations);
        return new CpuUse(
                client / 1e3 / ops,
                controller / 1e3 / ops,
                Math.max(0, process - client - inProcessController) / 1e3 / ops,
                postgres < 0 ? -1 : postgres / 1e3 / ops,
                postgres < 0 ? -1 : (process + forked + postgres + pgpool) / wall,
                machine < 0 ? -1 : machine / wall,
                pgpool / 1e3 / ops,
                controllerKernel / 1e3 / ops);
    }

    /** All CPU per operation this run can account for. */
    double totalMicrosPerOp() {
        return clientMicrosPerOp
                + controllerMicrosPerOp
                + otherJvmMicrosPerOp
                + Math.max(0, postgresMicrosPerOp)
                + pgpoolMicrosPerOp;
    }

    /** The median of each figure over the rounds, as {@link Figures#medianOf} does. */
    static CpuUse medianOf(List<CpuUse> rounds) {
        return new CpuUse(
                median(rounds, CpuUse::clientMicrosPerOp),
                median(rounds, CpuUse::controllerMicrosPerOp),
                median(rounds, CpuUse::otherJvmMicrosPerOp),
                median(rounds, CpuUse::postgresMicrosPerOp),
                median(rounds, CpuUse::runCores),
                median(rounds, CpuUse::machineBusyCores),
                median(rounds, CpuUse::pgpoolMicrosPerOp),
                median(rounds, CpuUse::controllerKernelMicrosPerOp));
    }

    private static double median(List<CpuUse> rounds, ToDoubleFunction<CpuUse> figure) {
        return Figures.median(rounds.stream().mapToDouble(figure).toArray());
    }
}
