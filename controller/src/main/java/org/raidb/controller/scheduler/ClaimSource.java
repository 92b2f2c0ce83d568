package org.raidb.controller.scheduler;

import java.util.List;

/**
 * Where a write's claims come from: worked out from what the controller knows of the backends'
 * keys, which DDL may change while the write waits for its classes (a unique index added, or
 * restored by a rollback). The scheduler asks again once it holds them, and takes the new claims
 * when they differ.
 */
public interface ClaimSource {
    /** The claims as things stand now. */
    List<Claim> claims();

    /** Whether what the last {@link #claims} came from has changed since. */
    boolean changed();

    /** Claims that nothing can change. */
    static ClaimSource of(List<Claim> claims) {
        return new ClaimSource() {
            @Override
            public List<Claim> claims() {
                return claims;
            }

            @Override
            public boolean changed() {
                return false;
            }
        };
    }
}
