package org.raidb.tpcw.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tpcw.support.TpcwTestDatabases;
import picocli.CommandLine;

/** {@code tpcw checksum}: identical populates compare equal; one changed row is named by its table. */
class ChecksumCommandIT {
    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(2).database("tpcw");

    private static int run(StringWriter out, String... args) {
        CommandLine cli = TpcwCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        return cli.execute(args);
    }

    @Test
    void identicalDatabasesExitZeroAndADifferentRowNamesItsTable() throws Exception {
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            TpcwTestDatabases.populate(s, TpcwTestDatabases.SMALL, TpcwTestDatabases.SEED);
        }
        String[] args = {
            "checksum",
            "--url",
            pg.server(0).jdbcUrl(),
            "--url",
            pg.server(1).jdbcUrl(),
            "--user",
            pg.server(0).user(),
            "--password",
            pg.server(0).password()
        };

        StringWriter same = new StringWriter();
        assertThat(run(same, args)).as(same.toString()).isZero();
        assertThat(same.toString())
                .contains("identical: every table has the same checksum in every database")
                .containsPattern("(?m)^item +100:[0-9a-f]{32} +identical in all 2$");

        try (Connection c = pg.server(1).connect();
                Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE item SET i_stock = i_stock + 1 WHERE i_id = 7");
        }
        StringWriter different = new StringWriter();
        assertThat(run(different, args)).isEqualTo(1);
        assertThat(different.toString())
                .contains("NOT identical: item")
                .containsPattern("(?m)^item .* DIFFERS: db1 100:[0-9a-f]{32}, db2 100:[0-9a-f]{32}$")
                .containsPattern("(?m)^author .* identical in all 2$");
    }
}
