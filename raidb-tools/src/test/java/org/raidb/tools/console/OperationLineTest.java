package org.raidb.tools.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@link OperationLine}: what {@code watch operation} redraws. */
class OperationLineTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRunningOperationShowsDoneOfTotalRateAndTimeLeft() throws Exception {
        String line = OperationLine.of(JSON.readTree("""
        {"id":3,"kind":"replay","virtualDatabase":"shop","target":"pg2","unit":"entries","state":"running",
         "done":1200,"total":5000,"ratePerSecond":812.4,"secondsLeft":185,"message":null}"""));
        assertThat(line).isEqualTo("#3 replay shop/pg2 1200 of 5000 entries (24%), 812/s, 3 min 05 s left, running");
    }

    @Test
    void anUnknownTotalAndAFinishedOperation() throws Exception {
        String line = OperationLine.of(JSON.readTree("""
        {"id":4,"kind":"dump","virtualDatabase":"shop","target":null,"unit":"rows","state":"failed",
         "done":10,"total":null,"ratePerSecond":null,"secondsLeft":null,"message":"pg_dump exited with 1"}"""));
        assertThat(line).isEqualTo("#4 dump shop 10 rows, failed: pg_dump exited with 1");
    }

    @Test
    void durationsReadAtAGlance() {
        assertThat(OperationLine.duration(42)).isEqualTo("42 s");
        assertThat(OperationLine.duration(60)).isEqualTo("1 min 00 s");
        assertThat(OperationLine.duration(7620)).isEqualTo("2 h 07 min");
    }
}
