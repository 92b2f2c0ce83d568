package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Percentiles and throughput from recorded latencies, and the median of rounds: arithmetic only, nothing timed. */
class MeasurementTest {

    @Test
    void percentilesAreReadInMillisecondsFromNanosecondLatencies() {
        Histogram h = Measurement.newLatencyHistogram();
        for (int ms = 1; ms <= 100; ms++) {
            h.recordValue(ms * 1_000_000L);
        }

        Figures f = new Measurement(h, 2_000_000_000L).figures();

        // Three significant digits: within 0.1 % of the exact value.
        assertThat(f.p50Millis()).isCloseTo(50, within(0.05));
        assertThat(f.p99Millis()).isCloseTo(99, within(0.1));
        assertThat(f.opsPerSecond()).isEqualTo(50.0);
    }

    @Test
    void aSingleSlowOperationMovesP99NotP50() {
        Histogram h = Measurement.newLatencyHistogram();
        h.recordValueWithCount(200_000L, 990); // 0.2 ms
        h.recordValueWithCount(30_000_000L, 10); // 30 ms

        Figures f = new Measurement(h, 1_000_000_000L).figures();

        assertThat(f.p50Millis()).isCloseTo(0.2, within(0.001));
        assertThat(f.p99Millis()).isCloseTo(0.2, within(0.001));
        assertThat(h.getValueAtPercentile(99.5) / 1e6).isCloseTo(30, within(0.05));
        assertThat(new Measurement(h, 1_000_000_000L).operations()).isEqualTo(1000);
    }

    @Test
    void latenciesBeyondOneMinuteAreStillTrackable() {
        Histogram h = Measurement.newLatencyHistogram();
        h.recordValue(h.getHighestTrackableValue());
        assertThat(h.getMaxValue()).isGreaterThanOrEqualTo(59_000_000_000L);
    }

    @Test
    void medianOfRoundsIsTakenFigureByFigure() {
        Figures a = new Figures(1000, 0.1, 0.9);
        Figures b = new Figures(3000, 0.3, 0.5);
        Figures c = new Figures(2000, 0.5, 0.7);

        assertThat(Figures.medianOf(List.of(a, b, c))).isEqualTo(new Figures(2000, 0.3, 0.7));
        assertThat(Figures.medianOf(List.of(a, b))).isEqualTo(new Figures(2000, 0.2, 0.7));
        assertThat(Figures.medianOf(List.of(c))).isEqualTo(c);
    }

    @Test
    void ratiosAreRaidbOverPgjdbc() {
        Comparison c =
                Comparison.of(Workload.POINT_SELECT, 1, new Figures(10_000, 0.1, 0.2), new Figures(8_000, 0.125, 0.3));

        assertThat(c.latencyRatio(Side.RAIDB, Side.PGJDBC)).isCloseTo(1.25, within(1e-9));
        assertThat(c.throughputRatio(Side.RAIDB, Side.PGJDBC)).isCloseTo(0.8, within(1e-9));
    }

    @Test
    void cpuUseSplitsTheWindowsCpuTimeByRolePerOperation() {
        java.util.Map<Long, CpuSample.ThreadCpu> before = java.util.Map.of(
                1L, new CpuSample.ThreadCpu(CpuSample.Role.CLIENT, 1_000_000),
                2L, new CpuSample.ThreadCpu(CpuSample.Role.CONTROLLER, 5_000_000));
        java.util.Map<Long, CpuSample.ThreadCpu> after = java.util.Map.of(
                1L, new CpuSample.ThreadCpu(CpuSample.Role.CLIENT, 21_000_000),
                2L, new CpuSample.ThreadCpu(CpuSample.Role.CONTROLLER, 35_000_000),
                3L, new CpuSample.ThreadCpu(CpuSample.Role.CONTROLLER, 10_000_000)); // started during the window
        // 1 s of wall time, 1,000 operations; the JVM spent 70 ms (20 client, 40 controller, 10 other),
        // PostgreSQL 50 ms, the machine 1.5 s of CPU (other builds included).
        CpuSample begin = new CpuSample(0, 100_000_000, before, 200_000_000, 3_000_000_000L);
        CpuSample end = new CpuSample(1_000_000_000, 170_000_000, after, 250_000_000, 4_500_000_000L);

        CpuUse use = CpuUse.between(begin, end, 1000);

        assertThat(use.clientMicrosPerOp()).isEqualTo(20.0);
        assertThat(use.controllerMicrosPerOp()).isEqualTo(40.0);
        assertThat(use.otherJvmMicrosPerOp()).isEqualTo(10.0);
        assertThat(use.postgresMicrosPerOp()).isEqualTo(50.0);
        assertThat(use.totalMicrosPerOp()).isEqualTo(120.0);
        assertThat(use.runCores()).isCloseTo(0.12, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(use.machineBusyCores()).isEqualTo(1.5);
    }

    @Test
    void theControllersKernelTimeIsItsCpuTimeOutsideUserMode() {
        // Controller thread 2: 30 ms of CPU in the window, 12 of them in user mode; thread 3, new: 10 ms, 4 user.
        java.util.Map<Long, CpuSample.ThreadCpu> before = java.util.Map.of(
                1L, new CpuSample.ThreadCpu(CpuSample.Role.CLIENT, 1_000_000, 0),
                2L, new CpuSample.ThreadCpu(CpuSample.Role.CONTROLLER, 5_000_000, 3_000_000));
        java.util.Map<Long, CpuSample.ThreadCpu> after = java.util.Map.of(
                1L, new CpuSample.ThreadCpu(CpuSample.Role.CLIENT, 21_000_000, 0),
                2L, new CpuSample.ThreadCpu(CpuSample.Role.CONTROLLER, 35_000_000, 15_000_000),
                3L, new CpuSample.ThreadCpu(CpuSample.Role.CONTROLLER, 10_000_000, 4_000_000));
        CpuSample begin = new CpuSample(0, 100_000_000, before, 200_000_000, 3_000_000_000L);
        CpuSample end = new CpuSample(1_000_000_000, 170_000_000, after, 250_000_000, 4_500_000_000L);

        CpuUse use = CpuUse.between(begin, end, 1000);

        assertThat(use.controllerMicrosPerOp()).isEqualTo(40.0);
        assertThat(use.controllerKernelMicrosPerOp()).isEqualTo(24.0); // (30 - 12) + (10 - 4) ms over 1,000
    }

    @Test
    void pgpoolsProcessesAreCountedApartAndInTheRunsCores() {
        // As above without threads: the JVM 70 ms, PostgreSQL 50 ms, pgpool-II 30 ms, 1,000 operations in 1 s.
        CpuSample begin = new CpuSample(0, 100_000_000, java.util.Map.of(), 200_000_000, 3_000_000_000L, 40_000_000);
        CpuSample end =
                new CpuSample(1_000_000_000, 170_000_000, java.util.Map.of(), 250_000_000, 4_500_000_000L, 70_000_000);

        CpuUse use = CpuUse.between(begin, end, 1000);

        assertThat(use.pgpoolMicrosPerOp()).isEqualTo(30.0);
        assertThat(use.postgresMicrosPerOp()).isEqualTo(50.0);
        assertThat(use.totalMicrosPerOp()).isEqualTo(150.0);
        assertThat(use.runCores()).isCloseTo(0.15, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void controllerProcessesCountAsTheControllersAndNotAsThisJvms() {
        // The benchmark's JVM: 70 ms, 20 of them its client thread; the controller processes: 90 ms, 30 of them
        // in the kernel; PostgreSQL 50 ms; 1,000 operations in 1 s.
        java.util.Map<Long, CpuSample.ThreadCpu> before =
                java.util.Map.of(1L, new CpuSample.ThreadCpu(CpuSample.Role.CLIENT, 1_000_000));
        java.util.Map<Long, CpuSample.ThreadCpu> after =
                java.util.Map.of(1L, new CpuSample.ThreadCpu(CpuSample.Role.CLIENT, 21_000_000));
        CpuSample begin = new CpuSample(
                0,
                100_000_000,
                before,
                200_000_000,
                3_000_000_000L,
                0,
                new CpuSample.ThreadCpu(CpuSample.Role.CONTROLLER, 500_000_000, 400_000_000));
        CpuSample end = new CpuSample(
                1_000_000_000,
                170_000_000,
                after,
                250_000_000,
                4_500_000_000L,
                0,
                new CpuSample.ThreadCpu(CpuSample.Role.CONTROLLER, 590_000_000, 460_000_000));

        CpuUse use = CpuUse.between(begin, end, 1000);

        assertThat(use.controllerMicrosPerOp()).isEqualTo(90.0);
        assertThat(use.controllerKernelMicrosPerOp()).isEqualTo(30.0);
        assertThat(use.otherJvmMicrosPerOp())
                .as("the benchmark JVM's own, without the client's")
                .isEqualTo(50.0);
        assertThat(use.runCores()).isCloseTo(0.21, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aRealSampleReadsAControllerProcessesTimeFromProc() {
        long self = ProcessHandle.current().pid();
        CpuSample none = CpuSample.take(java.util.List.of(), java.util.OptionalLong.empty());
        CpuSample sample = CpuSample.take(java.util.List.of(), java.util.OptionalLong.empty(), java.util.List.of(self));
        assertThat(none.controllerProcesses().cpuNanos()).isZero();
        assertThat(sample.controllerProcesses().cpuNanos())
                .as("this JVM read as a controller process")
                .isPositive();
    }

    @Test
    void aRealSampleReadsThisJvmsThreads() {
        CpuSample sample = CpuSample.take(java.util.OptionalLong.empty());
        assertThat(sample.threads()).isNotEmpty();
        assertThat(sample.processCpuNanos()).isPositive();
        assertThat(sample.postgresCpuNanos()).as("no server given").isEqualTo(-1);
    }
}
