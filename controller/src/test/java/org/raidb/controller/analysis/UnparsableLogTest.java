package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class UnparsableLogTest {
    private final AtomicLong now = new AtomicLong();
    private final UnparsableLog log = new UnparsableLog(now::get);

    @Test
    void aTextIsWarnedAboutOnce() {
        assertThat(log.unparsable("FROB x")).isTrue();
        assertThat(log.unparsable("FROB x")).isFalse();
        assertThat(log.unparsable("FROB y")).isTrue();
    }

    @Test
    void manyDistinctTextsWriteAtMostTheLimitPerMinute() {
        int written = 0;
        for (int i = 0; i < 1_000; i++) {
            written += log.unparsable("FROB " + i) ? 1 : 0;
        }
        assertThat(written).isEqualTo(UnparsableLog.PER_MINUTE);
        now.addAndGet(TimeUnit.MINUTES.toNanos(1));
        assertThat(log.unparsable("FROB again"))
                .as("a new minute, a new allowance")
                .isTrue();
    }
}
