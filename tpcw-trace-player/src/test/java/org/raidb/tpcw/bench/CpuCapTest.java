package org.raidb.tpcw.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the CPU cap reports, on cgroup hierarchies laid out in a temporary directory: applied where
 * it can write the group files, and "NOT applied" with the reason where it cannot, never an
 * exception (the benchmark then runs uncapped and says so).
 */
class CpuCapTest {
    @TempDir
    Path dir;

    private static BackendServer server(String name, long pid) {
        return new BackendServer(name, 5432, "jdbc:postgresql://127.0.0.1:5432/tpcw", "postgres", "", pid);
    }

    private static final BackendServer THIS_JVM =
            server("pg1", ProcessHandle.current().pid());

    @Test
    void aZeroCapIsNotApplied() {
        try (CpuCap cap = CpuCap.apply(0, List.of(THIS_JVM), dir, dir)) {
            assertThat(cap.applied()).isFalse();
            assertThat(cap.status()).isEqualTo("not applied (--backend-cpu 0: backends uncapped)");
        }
    }

    @Test
    void withoutACgroupCpuControllerTheCapIsNotAppliedAndSaysWhy() {
        try (CpuCap cap = CpuCap.apply(0.25, List.of(THIS_JVM), dir.resolve("v1"), dir.resolve("v2"))) {
            assertThat(cap.applied()).isFalse();
            assertThat(cap.status())
                    .isEqualTo("NOT applied (no cgroup CPU controller found under " + dir.resolve("v2")
                            + "): backends run uncapped");
        }
    }

    @Test
    void aCgroupThatCannotBeWrittenLeavesTheBackendsUncapped() throws Exception {
        Path v1 = Files.createDirectories(dir.resolve("cpu"));
        Files.writeString(v1.resolve("cpu.cfs_quota_us"), "-1");
        // Where the backend's group must be created there is a file: the group cannot be made, as on a
        // read-only cgroup file system (permissions would not stop root, who runs the benchmark).
        Files.writeString(v1.resolve("raidb-tpcw-pg1-" + THIS_JVM.pid()), "in the way");
        try (CpuCap cap = CpuCap.apply(0.25, List.of(THIS_JVM), v1, dir.resolve("v2"))) {
            assertThat(cap.applied()).isFalse();
            assertThat(cap.status())
                    .startsWith("NOT applied (")
                    .endsWith("): backends run uncapped")
                    .contains("raidb-tpcw-pg1-" + THIS_JVM.pid());
        }
    }

    @Test
    void aBackendThatIsNotRunningIsReportedByName() throws Exception {
        Path v1 = Files.createDirectories(dir.resolve("cpu"));
        Files.writeString(v1.resolve("cpu.cfs_quota_us"), "-1");
        long gone =
                ProcessHandle.allProcesses().mapToLong(ProcessHandle::pid).max().orElse(1) + 100_000;
        try (CpuCap cap = CpuCap.apply(0.25, List.of(server("pg2", gone)), v1, dir.resolve("v2"))) {
            assertThat(cap.applied()).isFalse();
            assertThat(cap.status())
                    .isEqualTo("NOT applied (postmaster " + gone + " of pg2 is not running): backends run uncapped");
        }
    }

    @Test
    void aWritableV1HierarchyGetsAGroupWithTheQuotaAndTheBackendsProcesses() throws Exception {
        Path v1 = Files.createDirectories(dir.resolve("cpu"));
        Files.writeString(v1.resolve("cpu.cfs_quota_us"), "-1");
        Files.writeString(v1.resolve("cgroup.procs"), "");
        Path group = v1.resolve("raidb-tpcw-pg1-" + THIS_JVM.pid());
        try (CpuCap cap = CpuCap.apply(0.25, List.of(THIS_JVM), v1, dir.resolve("v2"))) {
            assertThat(cap.applied()).isTrue();
            assertThat(cap.status())
                    .isEqualTo("applied: 0.25 CPU per backend (cgroup v1, quota 25000 us per 100000 us)");
            assertThat(Files.readString(group.resolve("cpu.cfs_quota_us"))).isEqualTo("25000");
            assertThat(Files.readString(group.resolve("cpu.cfs_period_us"))).isEqualTo("100000");
            assertThat(Files.readString(group.resolve("cgroup.procs"))).isEqualTo(Long.toString(THIS_JVM.pid()));
        }
        // Closing moves what is left in the group back to the parent group.
        assertThat(Files.readString(v1.resolve("cgroup.procs"))).isEqualTo(Long.toString(THIS_JVM.pid()));
    }
}
