package org.raidb.recovery;

import java.util.concurrent.atomic.AtomicInteger;

/** Stores for tests: each call gives a fresh in-memory H2 database. */
final class TestStores {
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private TestStores() {}

    static RecoveryLogConfig freshH2(String vdb) {
        return RecoveryLogConfig.of("jdbc:h2:mem:rl" + COUNTER.incrementAndGet() + ";DB_CLOSE_DELAY=-1", "sa", "", vdb);
    }
}
