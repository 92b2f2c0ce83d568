package org.raidb.controller.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.raidb.test.ManualClock;

/** {@link Operations}: progress, rate and time left as the replay and dump code will report them. */
class AdminOperationsTest {

    @Test
    void rateIsOverTheWholeRunAndTimeLeftFollowsFromIt() {
        ManualClock clock = new ManualClock();
        Operations operations = new Operations(clock);
        Operation replay = operations.start("replay", "shop", "pg2", "entries", 1000);
        assertThat(replay.progress().ratePerSecond()).isNull();

        clock.advance(Duration.ofSeconds(4));
        replay.advance(200);
        OperationProgress p = replay.progress();
        assertThat(p.done()).isEqualTo(200);
        assertThat(p.total()).isEqualTo(1000);
        assertThat(p.ratePerSecond()).isEqualTo(50.0);
        assertThat(p.secondsLeft()).isEqualTo(16);
        assertThat(p.state()).isEqualTo("running");
        assertThat(p.ended()).isNull();

        clock.advance(Duration.ofSeconds(16));
        replay.advance(800);
        replay.succeed("pg2 enabled");
        clock.advance(Duration.ofSeconds(100));
        OperationProgress done = replay.progress();
        assertThat(done.state()).isEqualTo("succeeded");
        assertThat(done.ratePerSecond())
                .as("measured up to the end, not up to now")
                .isEqualTo(50.0);
        assertThat(done.secondsLeft()).isNull();
        assertThat(done.ended()).isEqualTo("2024-05-01T10:00:20Z");
        assertThat(done.message()).isEqualTo("pg2 enabled");
    }

    @Test
    void aSucceededOperationsTotalIsWhatItDidNotTheEstimate() {
        ManualClock clock = new ManualClock();
        Operations operations = new Operations(clock);
        // The log's rows between the checkpoint and its end: BEGIN and COMMIT markers count there, not in a replay.
        Operation replay = operations.start("replay", "shop", "pg2", "entries", 75_929);
        replay.advance(71_832);
        assertThat(replay.progress().total()).isEqualTo(75_929);
        replay.succeed("backend pg2 enabled");
        assertThat(replay.progress().done()).isEqualTo(71_832);
        assertThat(replay.progress().total()).isEqualTo(71_832);

        Operation failed = operations.start("replay", "shop", "pg3", "entries", 100);
        failed.advance(40);
        failed.fail("pg3 went down");
        assertThat(failed.progress().total())
                .as("a failure keeps the estimate: the work was not all done")
                .isEqualTo(100);
    }

    @Test
    void anUnknownTotalHasNoTimeLeftAndTheFirstEndWins() {
        ManualClock clock = new ManualClock();
        Operation dump = new Operations(clock).start("dump", "shop", "pg1", "rows", -1);
        clock.advance(Duration.ofSeconds(2));
        dump.advance(10);
        assertThat(dump.progress().total()).isNull();
        assertThat(dump.progress().secondsLeft()).isNull();
        dump.fail("pg_dump exited with 1");
        dump.succeed("too late");
        assertThat(dump.progress().state()).isEqualTo("failed");
        assertThat(dump.progress().message()).isEqualTo("pg_dump exited with 1");
    }

    @Test
    void onlyTheNewestFinishedOperationsAreKeptAndRunningOnesNeverDropped() {
        Operations operations = new Operations(new ManualClock());
        Operation running = operations.start("replay", "shop", "pg1", "entries", 10);
        for (int i = 0; i < Operations.FINISHED_KEPT + 5; i++) {
            operations.start("dump", "shop", "pg2", "rows", 1).succeed("ok");
        }
        operations.start("dump", "shop", "pg2", "rows", 1);
        assertThat(operations.get(running.id())).contains(running);
        assertThat(operations.get(2)).isEmpty();
        assertThat(operations.all().stream().filter(o -> !o.isRunning()).count())
                .isEqualTo(Operations.FINISHED_KEPT);
    }
}
