package org.raidb.controller.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.driver.protocol.ErrorFrame;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.Protocol;
import org.raidb.test.PostgresClusterExtension;

/**
 * Password guessing on both ports is slowed down per source address and per user, and the throttle
 * cannot be turned against the user it protects: an address the user logged in from before is not held
 * by the user's delay, and a new address gets in once the attack stops. Each test uses addresses of
 * 127.0.0.0/8 of its own, so that the throttle's memory of one does not reach the other.
 */
class LoginThrottleIT {
    private static final int ATTEMPTS_BEFORE_DELAY = 5;

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(1).database("shop");

    static ControllerFixture raidb;

    @BeforeAll
    static void startController() throws Exception {
        raidb = ControllerFixture.start(
                pg.controllerConfig("shop")
                        .controllerAttribute("loginAttemptsBeforeDelay", ATTEMPTS_BEFORE_DELAY)
                        .controllerAttribute("loginMaxDelay", 3000),
                "shop");
    }

    @AfterAll
    static void stopController() {
        if (raidb != null) {
            raidb.close();
        }
    }

    /** The SQLState of the answer to one login from {@code from}, or null for HELLO_OK. */
    private static String login(InetAddress from, String password) throws IOException {
        try (WireClient c = WireClient.connect(raidb.controller().port(), from)) {
            PayloadReader answer = c.hello("shop", ControllerFixture.USER, password);
            return answer.type() == Protocol.HELLO_OK
                    ? null
                    : ErrorFrame.read(answer).getSQLState();
        }
    }

    private static String loginMessage(InetAddress from, String password) throws IOException {
        try (WireClient c = WireClient.connect(raidb.controller().port(), from)) {
            return ErrorFrame.read(c.hello("shop", ControllerFixture.USER, password))
                    .getMessage();
        }
    }

    @Test
    void aThousandWrongPasswordsOnTheDriverPortAreThrottledWithoutLockingTheUserOut() throws Exception {
        InetAddress attacker = InetAddress.getByName("127.0.0.21");
        InetAddress usual = InetAddress.getByName("127.0.0.22");
        assertThat(login(usual, ControllerFixture.PASSWORD))
                .as("the user's usual address, before the attack")
                .isNull();

        Map<String, Integer> answers = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            answers.merge(login(attacker, "guess" + i), 1, Integer::sum);
        }
        assertThat(answers.get("28P01")).as("guesses checked").isGreaterThanOrEqualTo(ATTEMPTS_BEFORE_DELAY);
        assertThat(answers.get("08004")).as("guesses refused unchecked").isGreaterThan(900);
        assertThat(answers.keySet()).containsOnly("28P01", "08004");
        // The attack goes on until one more guess has just been checked: the user's delay runs from here.
        await().atMost(30, TimeUnit.SECONDS)
                .pollInterval(50, TimeUnit.MILLISECONDS)
                .until(() -> "28P01".equals(login(attacker, "one more guess")));

        assertThat(login(attacker, ControllerFixture.PASSWORD))
                .as("the right password from the attacker")
                .isEqualTo("08004");
        assertThat(loginMessage(attacker, ControllerFixture.PASSWORD))
                .contains("too many failed logins from 127.0.0.21")
                .containsPattern("try again in \\d+ s");
        assertThat(login(usual, ControllerFixture.PASSWORD))
                .as("the user from its usual address, at once")
                .isNull();
        // A new address, through the driver (which connects from 127.0.0.1): the user's delay holds it back.
        assertThatThrownBy(raidb::connect)
                .as("the user from a new address, during the attack")
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08004"))
                .hasMessageContaining("too many failed logins as \"shop/app\"")
                .hasMessageContaining("with the right user and password");
        // Once the attack stops, the new address gets in within the longest delay: never locked out for good.
        await().atMost(30, TimeUnit.SECONDS)
                .pollInterval(250, TimeUnit.MILLISECONDS)
                .ignoreExceptionsInstanceOf(SQLException.class)
                .until(() -> {
                    try (java.sql.Connection c = raidb.connect()) {
                        return c.isValid(5);
                    }
                });
    }

    @Test
    void wrongAdminPasswordsAreAnswered429WithRetryAfterWithoutLockingTheAdminOut() throws Exception {
        InetAddress attacker = InetAddress.getByName("127.0.0.31");
        InetAddress usual = InetAddress.getByName("127.0.0.32");
        assertThat(adminGet(usual, "adminpw").status())
                .as("the admin from its usual address, before the attack")
                .isEqualTo(200);

        Map<Integer, Integer> statuses = new HashMap<>();
        HttpAnswer throttled = null;
        for (int i = 0; i < 100; i++) {
            HttpAnswer answer = adminGet(attacker, "guess" + i);
            statuses.merge(answer.status(), 1, Integer::sum);
            if (answer.status() == 429) {
                throttled = answer;
            }
        }
        assertThat(statuses.keySet()).containsOnly(401, 429);
        assertThat(statuses.get(401)).as("guesses checked").isGreaterThanOrEqualTo(ATTEMPTS_BEFORE_DELAY);
        assertThat(statuses.get(429)).as("guesses refused unchecked").isGreaterThan(80);
        assertThat(throttled.headers())
                .hasEntrySatisfying(
                        "retry-after", v -> assertThat(Integer.parseInt(v)).isPositive());
        assertThat(throttled.body())
                .contains("too many failed logins from 127.0.0.31")
                .contains("try again in");

        assertThat(adminGet(attacker, "adminpw").status())
                .as("the right password from the attacker")
                .isEqualTo(429);
        assertThat(adminGet(usual, "adminpw").status())
                .as("the admin from its usual address, at once")
                .isEqualTo(200);
    }

    private record HttpAnswer(int status, Map<String, String> headers, String body) {}

    /** GET /api/virtualdatabases as admin from {@code from}, over a socket bound there (HttpClient cannot bind). */
    private static HttpAnswer adminGet(InetAddress from, String password) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(from, 0));
            s.connect(
                    new InetSocketAddress(
                            InetAddress.getLoopbackAddress(), raidb.controller().adminPort()),
                    10_000);
            s.setSoTimeout(10_000);
            String credentials =
                    Base64.getEncoder().encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8));
            OutputStream out = s.getOutputStream();
            out.write(("GET /api/virtualdatabases HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic " + credentials
                            + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            int status = Integer.parseInt(in.readLine().split(" ")[1]);
            Map<String, String> headers = new HashMap<>();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                int colon = line.indexOf(':');
                headers.put(
                        line.substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT),
                        line.substring(colon + 1).trim());
            }
            StringBuilder body = new StringBuilder();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                body.append(line).append('\n');
            }
            return new HttpAnswer(status, headers, body.toString());
        }
    }
}
