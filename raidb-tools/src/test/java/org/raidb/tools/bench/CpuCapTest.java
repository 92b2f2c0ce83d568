package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench's copy of the TPC-W CPU cap, on a cgroup v1 hierarchy laid out in a temporary
 * directory: a group per postmaster with the quota, or "NOT applied" with the reason.
 */
class CpuCapTest {
    @TempDir
    Path dir;

    private static final CpuCap.CappedProcess THIS_JVM =
            new CpuCap.CappedProcess("pg1", ProcessHandle.current().pid());

    private Path v1() throws Exception {
        Path v1 = Files.createDirectories(dir.resolve("cpu"));
        Files.writeString(v1.resolve("cpu.cfs_quota_us"), "-1");
        Files.writeString(v1.resolve("cgroup.procs"), "");
        return v1;
    }

    @Test
    void aWritableV1HierarchyGetsAGroupPerServerWithTheQuotaAndItsProcesses() throws Exception {
        Path v1 = v1();
        Path group = v1.resolve(CpuCap.GROUP_PREFIX + "pg1-" + THIS_JVM.pid());
        try (CpuCap cap = CpuCap.apply(0.25, List.of(THIS_JVM), CpuCap.Kind.BACKENDS, v1, dir.resolve("v2"))) {
            assertThat(cap.applied()).isTrue();
            assertThat(cap.status())
                    .isEqualTo("applied: 0.25 CPU per backend (cgroup v1, quota 25000 us per 100000 us)");
            assertThat(Files.readString(group.resolve("cpu.cfs_quota_us"))).isEqualTo("25000");
            assertThat(Files.readString(group.resolve("cgroup.procs"))).isEqualTo(Long.toString(THIS_JVM.pid()));
        }
        // Closing moves what is left in the group back to the parent group.
        assertThat(Files.readString(v1.resolve("cgroup.procs"))).isEqualTo(Long.toString(THIS_JVM.pid()));
    }

    @Test
    void aServerWithoutARunningPostmasterLeavesTheRunUncappedAndSaysWhich() throws Exception {
        try (CpuCap cap = CpuCap.apply(
                0.25, List.of(new CpuCap.CappedProcess("pg2", -1)), CpuCap.Kind.BACKENDS, v1(), dir.resolve("v2"))) {
            assertThat(cap.applied()).isFalse();
            assertThat(cap.status())
                    .isEqualTo("NOT applied (postmaster -1 of pg2 is not running): backends run uncapped");
        }
    }

    @Test
    void aControllerCapSaysItCapsControllersAndWhichOptionTurnsItOff() throws Exception {
        Path v1 = v1();
        try (CpuCap cap = CpuCap.apply(
                0.33,
                List.of(new CpuCap.CappedProcess("controller-1-of-3", THIS_JVM.pid())),
                CpuCap.Kind.CONTROLLERS,
                v1,
                dir.resolve("v2"))) {
            assertThat(cap.status())
                    .isEqualTo("applied: 0.33 CPU per controller (cgroup v1, quota 33000 us per 100000 us)");
            assertThat(Files.readString(v1.resolve(CpuCap.GROUP_PREFIX + "controller-1-of-3-" + THIS_JVM.pid())
                            .resolve("cpu.cfs_quota_us")))
                    .isEqualTo("33000");
        }
        try (CpuCap off = CpuCap.apply(0, List.of(), CpuCap.Kind.CONTROLLERS, v1, dir.resolve("v2"))) {
            assertThat(off.status()).isEqualTo("not applied (--controller-cpu 0: controllers uncapped)");
        }
    }
}
