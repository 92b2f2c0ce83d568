package org.raidb.controller.auth;

import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Slows password guessing down: after a number of failed logins from one source address, or on one
 * user from anywhere, further attempts must wait, 1 s after the last failure at first, twice as long
 * with each further failure, up to a maximum. An attempt made while it must wait is refused without
 * checking its password, so that guessing gains nothing from trying faster; it does not count as a
 * failure either, so that waiting is always enough to be heard again. A successful login clears the
 * failures of its address, not those of its user: guesses on a user keep counting however often the
 * user itself logs in meanwhile.
 *
 * <p>The per-user delay is what stops guessing spread over many addresses, but it would also let an
 * attacker keep a user locked out. So an address from which that user logged in successfully within
 * {@link #REMEMBER_SUCCESS} is exempt from the user's delay (never from its own address delay): an attack
 * on a user's name does not lock that user out of the places it logs in from. A legitimate first login
 * from a new address during such an attack waits at most the maximum delay after the attack's last
 * failure, and may be refused again while the attack goes on; docs/admin.md states this trade-off.
 *
 * <p>Failures are forgotten {@link #FORGET_AFTER} after the last one. Each table keeps at most
 * {@link #MAX_ENTRIES} entries, least recently used first out, so that made-up user names and addresses
 * cannot exhaust memory. Thread-safe; logins are rare enough for one lock.
 */
public final class LoginThrottle {
    static final Duration FORGET_AFTER = Duration.ofHours(1);
    static final Duration REMEMBER_SUCCESS = Duration.ofDays(30);
    static final int MAX_ENTRIES = 50_000;
    private static final long FIRST_DELAY_NANOS = Duration.ofSeconds(1).toNanos();

    private final int attemptsBeforeDelay;
    private final long maxDelayNanos;
    private final LongSupplier nanoTime;
    private final Map<InetAddress, Failures> byAddress = lru();
    private final Map<String, Failures> byUser = lru();
    /** User and address of successful logins, as {@code user + '\0' + address}, to the time of the last one. */
    private final Map<String, Long> successes = lru();

    public LoginThrottle(int attemptsBeforeDelay, Duration maxDelay) {
        this(attemptsBeforeDelay, maxDelay, System::nanoTime);
    }

    LoginThrottle(int attemptsBeforeDelay, Duration maxDelay, LongSupplier nanoTime) {
        this.attemptsBeforeDelay = attemptsBeforeDelay;
        this.maxDelayNanos = maxDelay.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Throws when an attempt by {@code user} from {@code source} must wait; the caller then checks nothing. */
    /**
     * {@link #check} for a database client: a throttled attempt is an SQLException (08004) telling it when
     * to try again.
     */
    public void checkClient(InetAddress source, String user) throws java.sql.SQLException {
        try {
            check(source, user);
        } catch (LoginThrottledException e) {
            throw new java.sql.SQLException(
                    "login refused: " + e.getMessage() + "; try again in " + e.retryAfterSeconds()
                            + " s with the right user and password",
                    org.raidb.driver.protocol.SqlStates.CONNECTION_REJECTED);
        }
    }

    public synchronized void check(InetAddress source, String user) throws LoginThrottledException {
        if (maxDelayNanos == 0) {
            return;
        }
        long now = nanoTime.getAsLong();
        long addressWait = waitNanos(byAddress, source, now);
        if (addressWait > 0) {
            throw new LoginThrottledException(
                    "too many failed logins from " + source.getHostAddress() + " lately",
                    Duration.ofNanos(addressWait));
        }
        if (!loggedInFrom(user, source, now)) {
            long userWait = waitNanos(byUser, String.valueOf(user), now);
            if (userWait > 0) {
                throw new LoginThrottledException(
                        "too many failed logins as \"" + user + "\" lately", Duration.ofNanos(userWait));
            }
        }
    }

    public synchronized void failed(InetAddress source, String user) {
        if (maxDelayNanos == 0) {
            return;
        }
        long now = nanoTime.getAsLong();
        byAddress.computeIfAbsent(source, a -> new Failures()).add(now);
        byUser.computeIfAbsent(String.valueOf(user), u -> new Failures()).add(now);
    }

    public synchronized void succeeded(InetAddress source, String user) {
        if (maxDelayNanos == 0) {
            return;
        }
        byAddress.remove(source);
        successes.put(user + '\0' + source.getHostAddress(), nanoTime.getAsLong());
    }

    private <K> long waitNanos(Map<K, Failures> table, K key, long now) {
        Failures f = table.get(key);
        if (f == null) {
            return 0;
        }
        if (now - f.last > FORGET_AFTER.toNanos()) {
            table.remove(key);
            return 0;
        }
        if (f.count < attemptsBeforeDelay) {
            return 0;
        }
        return f.last + delayNanos(f.count) - now;
    }

    /** 1 s after the failure that reached the threshold, doubling with each one after it, up to the maximum. */
    long delayNanos(int failures) {
        return Math.min(FIRST_DELAY_NANOS << Math.min(failures - attemptsBeforeDelay, 32), maxDelayNanos);
    }

    private boolean loggedInFrom(String user, InetAddress source, long now) {
        Long last = successes.get(user + '\0' + source.getHostAddress());
        return last != null && now - last <= REMEMBER_SUCCESS.toNanos();
    }

    private static <K, V> Map<K, V> lru() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > MAX_ENTRIES;
            }
        };
    }

    /** Consecutive failures of one address or one user, and when the last one was. */
    private static final class Failures {
        int count;
        long last;

        void add(long now) {
            if (count > 0 && now - last > FORGET_AFTER.toNanos()) {
                count = 0; // stale: a new series of failures starts
            }
            count = count == Integer.MAX_VALUE ? count : count + 1;
            last = now;
        }
    }
}
