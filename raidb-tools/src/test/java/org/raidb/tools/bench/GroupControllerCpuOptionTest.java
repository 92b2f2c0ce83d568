package org.raidb.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench group --controller-cpu} as parsed and checked; nothing here starts a server. */
class GroupControllerCpuOptionTest {
    private static GroupCommand parse(String... args) {
        GroupCommand command = new GroupCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void offByDefaultKeepsTheControllersInProcess() {
        assertThat(parse().controllerCpu).isZero();
        assertThat(parse("--controller-cpu", "OFF").controllerCpu).isZero();
    }

    @Test
    void aNumberOfCpusForksAndCapsEachController() {
        assertThat(parse("--controller-cpu", "0.33").controllerCpu).isEqualTo(0.33);
    }

    @Test
    void notANumberIsRefusedSayingWhatToGive() {
        BenchCli.Outcome half = BenchCli.execute("bench", "group", "--controller-cpu", "half");
        assertThat(half.exit()).isEqualTo(2);
        assertThat(half.err())
                .contains("--controller-cpu")
                .contains("'half' is not a number of CPUs: give one such as 0.5, or off");
    }

    @Test
    void zeroOrMoreThanTheMachinesCpusIsRefused() {
        int cores = Runtime.getRuntime().availableProcessors();
        BenchCli.Outcome zero = BenchCli.execute("bench", "group", "--controller-cpu", "0");
        BenchCli.Outcome tooMany = BenchCli.execute("bench", "group", "--controller-cpu", Integer.toString(cores + 1));
        assertThat(zero.exit()).isEqualTo(2);
        assertThat(zero.err()).contains("'0': give between 0.01 and " + cores + " CPUs");
        assertThat(tooMany.exit()).isEqualTo(2);
        assertThat(tooMany.err()).contains("'" + (cores + 1) + "': give between 0.01 and " + cores + " CPUs");
    }

    @Test
    void theHelpSaysWhatTheOptionDoes() {
        assertThat(BenchCli.run("bench", "group", "--help"))
                .contains("--controller-cpu=CPUS|off")
                .contains("Run every controller of every setup");
    }
}
