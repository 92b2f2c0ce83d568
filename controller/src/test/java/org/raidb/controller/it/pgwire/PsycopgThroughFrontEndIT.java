package org.raidb.controller.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.controller.it.support.ReplicaChecks;
import org.raidb.test.PostgresClusterExtension;

/**
 * Python's psycopg2 (libpq, SCRAM-SHA-256) through the PostgreSQL front end over three backends: connect,
 * DDL, parameterised writes, a transaction, an error rolled back and the connection going on, reads; the
 * backends identical afterwards. Debian's python3-psycopg2, which .ci/run installs.
 */
class PsycopgThroughFrontEndIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final String PYTHON = "/usr/bin/python3";

    private static boolean psycopgInstalled() throws Exception {
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return false;
        }
        Process p = new ProcessBuilder(PYTHON, "-c", "import psycopg2").start();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    @Test
    void psycopgConnectsWritesReadsAndGoesOnAfterAnError() throws Exception {
        assumeTrue(
                psycopgInstalled(), "psycopg2 is not installed (Debian package python3-psycopg2, as .ci/run installs)");
        try (ControllerFixture raidb =
                ControllerFixture.start(pg.controllerConfig("shop").controllerAttribute("pgPort", 0), "shop")) {
            Path script = Files.createTempFile("raidb-psycopg", ".py");
            Files.writeString(
                    script,
                    String.join(
                            "\n",
                            "import sys, psycopg2",
                            "c = psycopg2.connect(host='127.0.0.1', port=int(sys.argv[1]), dbname='shop', user='app',"
                                    + " password='apppw')",
                            "cur = c.cursor()",
                            "cur.execute('CREATE TABLE book (id int PRIMARY KEY, title text, price numeric(6,2))')",
                            "cur.executemany('INSERT INTO book VALUES (%s, %s, %s)',"
                                    + " [(1, 'Dune', 9.5), (2, \"O'Brien\", 12), (3, 'Emma', 7.25)])",
                            "c.commit()",
                            "try:",
                            "    cur.execute('INSERT INTO book VALUES (%s, %s, %s)', (1, 'again', 1))",
                            "except psycopg2.errors.UniqueViolation as e:",
                            "    print('error', e.pgcode)",
                            "    c.rollback()",
                            "cur.execute('UPDATE book SET price = price + %s WHERE id = %s', (1, 3))",
                            "print('updated', cur.rowcount)",
                            "c.commit()",
                            "cur.execute('SELECT id, title, price FROM book ORDER BY id')",
                            "for row in cur.fetchall():",
                            "    print('row', row[0], row[1], row[2])",
                            "print('version', c.server_version > 90000)",
                            "c.close()",
                            ""));
            String output = PostgresClientPrograms.run(
                    List.of(
                            PYTHON,
                            script.toString(),
                            String.valueOf(raidb.controller().pgPort())),
                    60);
            assertThat(output)
                    .contains("error 23505")
                    .contains("updated 1")
                    .contains("row 1 Dune 9.50")
                    .contains("row 2 O'Brien 12.00")
                    .contains("row 3 Emma 8.25")
                    .contains("version True");
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
    }
}
