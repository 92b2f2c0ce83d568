package org.raidb.tpcw.play;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Which aborts are retried, how often, and how long the random waits may be. */
class RetryPolicyTest {

    /** Draws the largest value below the bound, or the smallest: the backoff's two ends. */
    private static RandomGenerator always(boolean largest) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException("only bounded draws");
            }

            @Override
            public long nextLong(long bound) {
                return largest ? bound - 1 : 0;
            }
        };
    }

    @Test
    void onlySerializationFailuresAndDeadlockVictimsAreRetried() {
        assertThat(RetryPolicy.retryable(new SQLException("victim", "40001"))).isTrue();
        assertThat(RetryPolicy.retryable(new SQLException("deadlock", "40P01"))).isTrue();
        for (String state : new String[] {"40000", "40002", "23505", "55P03", "08006", "53300"}) {
            assertThat(RetryPolicy.retryable(new SQLException("no", state)))
                    .as(state)
                    .isFalse();
        }
        assertThat(RetryPolicy.retryable(new SQLException("no state"))).isFalse();
    }

    @Test
    void retriesAreBoundedByMaxRetries() {
        RetryPolicy three = RetryPolicy.withMaxRetries(3);
        assertThat(three.allows(1)).isTrue();
        assertThat(three.allows(3)).isTrue();
        assertThat(three.allows(4)).isFalse();
        assertThat(RetryPolicy.withMaxRetries(0).allows(1)).isFalse();
        assertThat(RetryPolicy.defaults().maxRetries()).isEqualTo(RetryPolicy.DEFAULT_MAX_RETRIES);
    }

    @Test
    void backoffDoublesItsBoundFromRetryToRetryUpToTheMaximum() {
        RetryPolicy policy = new RetryPolicy(10, 2, 100);
        long[] bounds = {2, 4, 8, 16, 32, 64, 100, 100, 100, 100};
        for (int retry = 1; retry <= bounds.length; retry++) {
            assertThat(policy.backoffMillis(retry, always(true)))
                    .as("retry %d, longest", retry)
                    .isEqualTo(bounds[retry - 1]);
            assertThat(policy.backoffMillis(retry, always(false)))
                    .as("retry %d, shortest", retry)
                    .isEqualTo(1);
        }
        assertThat(policy.backoffMillis(1_000, always(true))).isEqualTo(100);
    }

    @Test
    void backoffIsRandomWithinItsBound() {
        RetryPolicy policy = new RetryPolicy(10, 2, 100);
        RandomGenerator seeded = new SplittableRandom(7);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            long wait = policy.backoffMillis(5, seeded);
            assertThat(wait).isBetween(1L, 32L);
            seen.add(wait);
        }
        assertThat(seen).as("different sessions wait different times").hasSizeGreaterThan(10);
    }

    @Test
    void badSettingsAreRefusedWithTheirValues() {
        assertThatThrownBy(() -> RetryPolicy.withMaxRetries(-1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> new RetryPolicy(1, 0, 10)).hasMessageContaining("backoff");
        assertThatThrownBy(() -> new RetryPolicy(1, 20, 10)).hasMessageContaining("backoff");
    }
}
