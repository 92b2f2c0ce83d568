package org.raidb.tpcw.interactions;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import org.raidb.tpcw.populate.TpcwRandom;

/**
 * What one emulated browser remembers between interactions: who it is logged in as and its cart.
 *
 * <p>Replays must end in the same state whatever the interleaving of sessions, so rows that are
 * overwritten with values (not commutative updates) belong to one session: browser {@code s} of
 * {@code n} only logs in as customers {@code c} with {@code c ≡ s+1 (mod n)} and only administers
 * items {@code i ≡ s+1 (mod n)}; new customers, carts and addresses are its own by construction.
 */
public final class BrowserState {

    final int session;
    final int sessions;
    final NewIds ids;
    final TpcwRandom random;
    final BestSellersVariant bestSellers;
    Integer customer;
    Integer cart;

    public BrowserState(int session, int sessions, NewIds ids, long seed, BestSellersVariant bestSellers) {
        if (session < 0 || session >= sessions) {
            throw new IllegalArgumentException("session " + session + " of " + sessions);
        }
        this.session = session;
        this.sessions = sessions;
        this.ids = ids;
        this.random = new TpcwRandom(seed * 1_000_003L + session);
        this.bestSellers = bestSellers;
    }

    /** This browser's customer, logging in as one of its own populated customers on first need. */
    int customer() {
        if (customer == null) {
            customer = own(ids.customersAtStart());
        }
        return customer;
    }

    /** An item this browser alone administers, or empty when there are fewer items than sessions. */
    java.util.OptionalInt ownItem() {
        return session + 1 <= ids.items() ? java.util.OptionalInt.of(own(ids.items())) : java.util.OptionalInt.empty();
    }

    /** A random key in 1..max congruent to this session (mod sessions). */
    private int own(int max) {
        int first = session + 1;
        if (first > max) {
            throw new IllegalStateException("session " + first + " has no customer of its own among " + max);
        }
        int slots = (max - first) / sessions + 1;
        return first + sessions * random.between(0, slots - 1);
    }

    int randomItem() {
        return random.between(1, ids.items());
    }

    /** Now to the second: written into statements as a literal, never as now(). */
    static LocalDateTime now() {
        return LocalDateTime.now(ZoneId.systemDefault()).truncatedTo(ChronoUnit.SECONDS);
    }
}
