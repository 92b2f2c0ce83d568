package org.raidb.controller.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.test.PostgresClusterExtension;

/**
 * psql (libpq, SCRAM-SHA-256) runs a script through the PostgreSQL front end over three backends: DDL, DML, a
 * transaction, an error and the session going on after it; the backends identical afterwards.
 */
class PsqlThroughFrontEndIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    @Test
    void psqlRunsAScriptWithATransactionAndAnError() throws Exception {
        Path psql = PostgresClientPrograms.find("psql");
        assumeTrue(psql != null, "psql is not installed (Debian package postgresql-client, as .ci/run installs)");
        try (ControllerFixture raidb =
                ControllerFixture.start(pg.controllerConfig("shop").controllerAttribute("pgPort", 0), "shop")) {
            Path script = Files.createTempFile("raidb-psql", ".sql");
            Path copyIn =
                    Files.writeString(Files.createTempFile("raidb-psql", ".tsv"), "5\tkiwi\t1.00\n6\tlime\t\\N\n");
            Path copyOut = Files.createTempFile("raidb-psql", ".csv");
            Files.writeString(
                    script,
                    String.join(
                            "\n",
                            "CREATE TABLE fruit (id int PRIMARY KEY, name text NOT NULL, price numeric(6,2));",
                            "INSERT INTO fruit VALUES (1, 'apple', 1.20), (2, 'pear', 2.05);",
                            "BEGIN;",
                            "UPDATE fruit SET price = price * 2 WHERE id = 1;",
                            "INSERT INTO fruit VALUES (3, 'plum', 0.99);",
                            "COMMIT;",
                            "SELECT * FROM no_such_table;",
                            "INSERT INTO fruit VALUES (4, 'fig', 3.10);",
                            "\\copy fruit (id, name, price) FROM '" + copyIn + "'",
                            "\\copy (SELECT id, name, price FROM fruit WHERE id > 4 ORDER BY id) TO '" + copyOut
                                    + "' WITH (FORMAT csv, HEADER)",
                            "SELECT id, name, price FROM fruit ORDER BY id;",
                            ""));
            String output = PostgresClientPrograms.run(
                    List.of(
                            psql.toString(),
                            "-X",
                            "-h",
                            "127.0.0.1",
                            "-p",
                            String.valueOf(raidb.controller().pgPort()),
                            "-U",
                            ControllerFixture.USER,
                            "-d",
                            "shop",
                            "-f",
                            script.toString()),
                    60);
            assertThat(output)
                    .contains("CREATE TABLE")
                    .contains("INSERT 0 2")
                    .contains("BEGIN")
                    .contains("UPDATE 1")
                    .contains("COMMIT")
                    .contains("ERROR:")
                    .contains("no_such_table")
                    .contains("INSERT 0 1")
                    .contains("apple")
                    .contains("2.40")
                    .contains("plum")
                    .contains("fig")
                    .contains("COPY 2")
                    .contains("(6 rows)");
            assertThat(Files.readString(copyOut)).as(output).isEqualTo("id,name,price\n5,kiwi,1.00\n6,lime,\n");
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
        ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT count(*), sum(price) FROM fruit", "6|9.54|");
    }
}
