package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.raidb.tools.cli.RaidbCommand;
import picocli.CommandLine;

/** {@code bench overhead}'s options as parsed and checked; nothing here starts a server. */
class OverheadOptionsTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static OverheadCommand parse(String... args) {
        OverheadCommand command = new OverheadCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    private int run(String... args) {
        return new CommandLine(new RaidbCommand())
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
    }

    @Test
    void defaultsAreOneBackendLogOnFsyncOnBothWorkloadsAndPgpoolWhenInstalled() {
        OverheadCommand c = parse();

        assertThat(c.backends).isEqualTo(1);
        assertThat(c.recoveryLog).isEqualTo(OverheadCommand.OnOff.ON);
        assertThat(c.fsync).isEqualTo(OverheadCommand.OnOff.ON);
        assertThat(c.workloads).containsExactly(Workload.POINT_SELECT, Workload.SINGLE_ROW_UPDATE);
        assertThat(c.pgpoolChoice).isEqualTo(OverheadCommand.PgpoolChoice.AUTO);
        assertThat(c.threadCounts).containsExactly(1, 16);
    }

    @Test
    void theIssuesRunParses() {
        OverheadCommand c = parse(
                "--backends",
                "2",
                "--workload",
                "update",
                "--threads",
                "1,16",
                "--fsync",
                "both",
                "--recovery-log",
                "BOTH",
                "--pgpool",
                "on");

        assertThat(c.backends).isEqualTo(2);
        assertThat(c.workloads).containsExactly(Workload.SINGLE_ROW_UPDATE);
        assertThat(c.fsync.settings()).containsExactly(true, false);
        assertThat(c.recoveryLog.text()).isEqualTo("on and off");
        assertThat(c.pgpoolChoice).isEqualTo(OverheadCommand.PgpoolChoice.ON);
    }

    @Test
    void sidesFollowTheLogChoiceAndPgpoolOnlyWhenItIsToBeMeasured() {
        PgpoolPlan with = new PgpoolPlan(Optional.of(Path.of("/usr/sbin/pgpool")), "pgpool-II version 4.3.5");
        PgpoolPlan without = new PgpoolPlan(Optional.empty(), "skipped");

        assertThat(parse().sides(without)).containsExactly(Side.PGJDBC, Side.RAIDB);
        assertThat(parse("--recovery-log", "off").sides(with))
                .containsExactly(Side.PGJDBC, Side.RAIDB_LOG_OFF, Side.PGPOOL);
        assertThat(parse("--recovery-log", "both").sides(with))
                .containsExactly(Side.PGJDBC, Side.RAIDB, Side.RAIDB_LOG_OFF, Side.PGPOOL);
    }

    @Test
    void badValuesExitWith2BeforeAnyServerStarts() {
        for (List<String> bad : List.of(
                List.of("--backends", "0"),
                List.of("--backends", "9"),
                List.of("--fsync", "maybe"),
                List.of("--recovery-log", "sometimes"),
                List.of("--workload", "delete"),
                List.of("--workload", "update,update"),
                List.of("--pgpool", "yes"),
                List.of("--jfr", "/tmp/x.jfr", "--fsync", "both"),
                List.of("--threads", "0"))) {
            List<String> args = new java.util.ArrayList<>(List.of("bench", "overhead", "--no-record"));
            args.addAll(bad);
            assertThat(run(args.toArray(String[]::new)))
                    .as("%s; stderr: %s", bad, err)
                    .isEqualTo(2);
        }
    }

    @Test
    void pgpoolIsSkippedWithTheReasonWhenNotInstalledOrNotWanted() {
        assertThat(PgpoolPlan.decide(OverheadCommand.PgpoolChoice.AUTO, 2, Optional.empty())
                        .description())
                .startsWith("skipped, not installed (no pgpool binary on the PATH");
        assertThat(PgpoolPlan.decide(OverheadCommand.PgpoolChoice.OFF, 2, Optional.of(Path.of("/usr/sbin/pgpool"))))
                .isEqualTo(new PgpoolPlan(Optional.empty(), "skipped (--pgpool off)"));
        assertThatThrownBy(() -> PgpoolPlan.decide(OverheadCommand.PgpoolChoice.ON, 2, Optional.empty()))
                .hasMessageContaining("--pgpool on, but no pgpool binary");
    }

    @Test
    void pgpoolsConfigurationIsNativeReplicationWithLoadBalanceOnItsOwnPortsAndDirectory() {
        String conf = Pgpool.configuration(Path.of("/tmp/pp"), 41001, 41002, List.of(50001, 50002), 18);

        assertThat(conf)
                .contains(
                        "backend_clustering_mode = 'native_replication'\n",
                        "load_balance_mode = on\n",
                        "port = 41001\n",
                        "pcp_port = 41002\n",
                        "pcp_listen_addresses = ''\n",
                        "listen_addresses = '127.0.0.1'\n",
                        "socket_dir = '/tmp/pp'\n",
                        "pid_file_name = '/tmp/pp/pgpool.pid'\n",
                        "backend_port0 = 50001\n",
                        "backend_port1 = 50002\n",
                        "num_init_children = 18\n",
                        "enable_pool_hba = on\n")
                .doesNotContain("9999", "/var/run");
    }

    @Test
    void aFreePortIsOneTheOsPicked() throws Exception {
        int port = Pgpool.freePort();
        assertThat(port).isBetween(1024, 65535);
    }
}
