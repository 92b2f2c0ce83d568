package org.raidb.controller.it.recovery;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.MariaDbBackends;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.MariaDbServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * {@link LargeLogScenario} with the log in a database of its own on the local MariaDB (skipped, saying
 * so, where none answers; dropped after); pg3 misses all of the million entries and replays them.
 */
class LargeLogMariaDbStoreIT extends LargeLogScenario {
    private static final String DATABASE = "raidb_largelog_it";

    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database(VDB);

    LargeLogMariaDbStoreIT() {
        super(pg, "MariaDB", 1_000_000);
    }

    @Override
    String recoveryLogXml() throws Exception {
        MariaDbBackends.recreate(List.of(DATABASE));
        return "<recoveryLog url=\"" + ControllerConfigXml.escape(MariaDbServer.jdbcUrl(DATABASE)) + "\" user=\""
                + MariaDbServer.USER + "\" password=\"" + MariaDbServer.PASSWORD + "\"/>";
    }

    @AfterEach
    void dropTheStore() throws Exception {
        MariaDbBackends.drop(List.of(DATABASE));
    }
}
