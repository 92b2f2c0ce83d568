package org.raidb.controller.it.recovery;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.test.PostgresClusterExtension;

/** {@link LargeLogScenario} on the default store, an H2 file under the controller's data directory: all of it replayed. */
class LargeLogH2StoreIT extends LargeLogScenario {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database(VDB);

    LargeLogH2StoreIT() {
        super(pg, "H2 file", 1_000_000);
    }
}
