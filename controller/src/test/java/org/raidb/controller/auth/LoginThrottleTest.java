package org.raidb.controller.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final LoginThrottle throttle = new LoginThrottle(3, Duration.ofSeconds(10), now::get);

    private static InetAddress address(int last) throws Exception {
        return InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) last});
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    private void fail(InetAddress from, String user, int times) {
        for (int i = 0; i < times; i++) {
            throttle.failed(from, user);
        }
    }

    @Test
    void delaysStartAtTheThresholdDoubleAndStopAtTheMaximum() {
        assertThat(throttle.delayNanos(3)).isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(throttle.delayNanos(4)).isEqualTo(Duration.ofSeconds(2).toNanos());
        assertThat(throttle.delayNanos(6)).isEqualTo(Duration.ofSeconds(8).toNanos());
        assertThat(throttle.delayNanos(7)).isEqualTo(Duration.ofSeconds(10).toNanos());
        assertThat(throttle.delayNanos(Integer.MAX_VALUE))
                .isEqualTo(Duration.ofSeconds(10).toNanos());
    }

    @Test
    void anAddressWaitsAfterItsFailuresAndWaitingIsEnough() throws Exception {
        InetAddress a = address(1);
        fail(a, "u", 3);
        assertThatThrownBy(() -> throttle.check(a, "v"))
                .isInstanceOf(LoginThrottledException.class)
                .hasMessageContaining("from 10.0.0.1")
                .satisfies(e -> assertThat(((LoginThrottledException) e).retryAfterSeconds())
                        .isEqualTo(1));
        // Refused attempts do not count: after the delay one attempt is checked again.
        for (int i = 0; i < 100; i++) {
            assertThatThrownBy(() -> throttle.check(a, "v")).isInstanceOf(LoginThrottledException.class);
        }
        advance(Duration.ofMillis(1001));
        assertThatCode(() -> throttle.check(a, "v")).doesNotThrowAnyException();
        throttle.failed(a, "v");
        assertThatThrownBy(() -> throttle.check(a, "w"))
                .satisfies(e -> assertThat(((LoginThrottledException) e).retryAfterSeconds())
                        .isEqualTo(2));
    }

    @Test
    void aSuccessClearsTheAddressButNotTheGuessesOnTheUser() throws Exception {
        InetAddress a = address(1);
        fail(a, "u", 2);
        throttle.succeeded(a, "other");
        fail(a, "u", 2); // 2 + 2 on the user, but only 2 since the success on the address
        assertThatCode(() -> throttle.check(a, "x")).doesNotThrowAnyException();
        assertThatThrownBy(() -> throttle.check(address(2), "u")).hasMessageContaining("as \"u\"");
    }

    @Test
    void guessesFromManyAddressesHoldTheUserBackButNotWhereItLoggedInBefore() throws Exception {
        InetAddress home = address(100);
        throttle.succeeded(home, "u");
        for (int i = 1; i <= 3; i++) {
            fail(address(i), "u", 1); // one guess per address: no address reaches the threshold
        }
        assertThatThrownBy(() -> throttle.check(address(50), "u"))
                .isInstanceOf(LoginThrottledException.class)
                .hasMessageContaining("as \"u\"");
        assertThatCode(() -> throttle.check(home, "u"))
                .as("the user's own address")
                .doesNotThrowAnyException();
        assertThatCode(() -> throttle.check(address(50), "someone else")).doesNotThrowAnyException();
        advance(Duration.ofSeconds(11));
        assertThatCode(() -> throttle.check(address(50), "u"))
                .as("after the longest delay")
                .doesNotThrowAnyException();
    }

    @Test
    void failuresAreForgottenAnHourAfterTheLast() throws Exception {
        InetAddress a = address(1);
        fail(a, "u", 10);
        advance(LoginThrottle.FORGET_AFTER.plusSeconds(1));
        fail(a, "u", 2);
        assertThatCode(() -> throttle.check(a, "u")).doesNotThrowAnyException();
    }

    @Test
    void aZeroMaximumDelayTurnsThrottlingOff() throws Exception {
        LoginThrottle off = new LoginThrottle(1, Duration.ZERO, now::get);
        InetAddress a = address(1);
        for (int i = 0; i < 1000; i++) {
            off.check(a, "u");
            off.failed(a, "u");
        }
        assertThatCode(() -> off.check(a, "u")).doesNotThrowAnyException();
    }
}
