package org.raidb.controller.admin.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.raidb.test.ManualClock;

/** {@link ConsoleSessions}: sessions found by id while used, gone after the idle timeout or a logout. */
class ConsoleSessionsTest {

    @Test
    void aSessionStaysOpenWhileUsedAndEndsAfterTheIdleTimeout() {
        ManualClock clock = new ManualClock();
        ConsoleSessions<String> sessions = new ConsoleSessions<>(clock);
        ConsoleSession<String> session = sessions.open("admin", "principal");

        clock.advance(ConsoleSessions.IDLE_TIMEOUT.minusSeconds(1));
        assertThat(sessions.find(session.id())).as("used just in time").isPresent();
        clock.advance(ConsoleSessions.IDLE_TIMEOUT.minusSeconds(1));
        assertThat(sessions.find(session.id()))
                .as("the last use counts, not the login")
                .isPresent();
        clock.advance(ConsoleSessions.IDLE_TIMEOUT.plus(Duration.ofSeconds(1)));
        assertThat(sessions.find(session.id())).as("idle too long").isEmpty();
    }

    @Test
    void idsAndTokensAreDistinctAndALogoutEndsTheSession() {
        ConsoleSessions<String> sessions = new ConsoleSessions<>(new ManualClock());
        ConsoleSession<String> a = sessions.open("admin", "a");
        ConsoleSession<String> b = sessions.open("admin", "b");

        assertThat(a.id()).isNotEqualTo(b.id()).hasSize(43); // 256 bits, base64url without padding
        assertThat(a.csrfToken()).isNotEqualTo(b.csrfToken()).isNotEqualTo(a.id());
        assertThat(a.acceptsCsrfToken(a.csrfToken())).isTrue();
        assertThat(a.acceptsCsrfToken(b.csrfToken())).isFalse();
        assertThat(a.acceptsCsrfToken(null)).isFalse();
        assertThat(sessions.find(null)).isEmpty();
        assertThat(sessions.find("unknown")).isEmpty();

        sessions.close(a);
        assertThat(sessions.find(a.id())).isEmpty();
        assertThat(sessions.find(b.id()))
                .hasValueSatisfying(s -> assertThat(s.admin()).isEqualTo("b"));
    }
}
