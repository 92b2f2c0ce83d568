package org.raidb.controller.it.recovery;

import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * {@link LargeLogScenario} with the log in a PostgreSQL database of a fourth embedded server; pg3
 * misses the last 200,000 of the million entries (the store shares the machine's two cores).
 */
class LargeLogPostgresStoreIT extends LargeLogScenario {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(4).database(VDB);

    LargeLogPostgresStoreIT() {
        super(pg, "PostgreSQL", 200_000);
    }

    @Override
    String recoveryLogXml() throws Exception {
        EmbeddedPostgresServer store = pg.server(3);
        try (Connection c = store.connect();
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS raidb_log");
            st.execute("CREATE DATABASE raidb_log");
        }
        return "<recoveryLog url=\"" + ControllerConfigXml.escape(store.jdbcUrl("raidb_log")) + "\" user=\""
                + ControllerConfigXml.escape(store.user()) + "\" password=\""
                + ControllerConfigXml.escape(store.password()) + "\"/>";
    }
}
