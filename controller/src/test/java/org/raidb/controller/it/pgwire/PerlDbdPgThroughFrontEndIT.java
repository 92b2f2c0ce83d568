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
 * Perl's DBI with DBD::Pg (libpq; server-side prepared statements, so Parse/Bind/Execute with named
 * statements) through the PostgreSQL front end over three backends: a statement prepared once and executed
 * with several bindings, a transaction, an error and the connection going on, reads, and the backends
 * identical afterwards. Debian's libdbd-pg-perl, which .ci/run installs.
 */
class PerlDbdPgThroughFrontEndIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(3).database("shop");

    private static final String PERL = "/usr/bin/perl";

    private static boolean dbdPgInstalled() throws Exception {
        if (!Files.isExecutable(Path.of(PERL))) {
            return false;
        }
        Process p = new ProcessBuilder(PERL, "-MDBD::Pg", "-e", "1").start();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    @Test
    void dbdPgPreparesOnceExecutesManyAndGoesOnAfterAnError() throws Exception {
        assumeTrue(dbdPgInstalled(), "DBD::Pg is not installed (Debian package libdbd-pg-perl, as .ci/run installs)");
        try (ControllerFixture raidb =
                ControllerFixture.start(pg.controllerConfig("shop").controllerAttribute("pgPort", 0), "shop")) {
            Path script = Files.createTempFile("raidb-dbd-pg", ".pl");
            Files.writeString(
                    script,
                    String.join(
                            "\n",
                            "use strict; use warnings; use DBI;",
                            "my $dbh = DBI->connect(\"dbi:Pg:dbname=shop;host=127.0.0.1;port=$ARGV[0]\", 'app', 'apppw',",
                            "    {AutoCommit => 1, RaiseError => 1, PrintError => 0});",
                            "$dbh->do('CREATE TABLE tool (id int PRIMARY KEY, name text, weight numeric(6,2))');",
                            "my $insert = $dbh->prepare('INSERT INTO tool VALUES (?, ?, ?)');",
                            "$dbh->begin_work;",
                            "$insert->execute(1, 'hammer', 1.5);",
                            "$insert->execute(2, 'saw', 0.75);",
                            "$insert->execute(3, \"pliers'\", 0.3);",
                            "$dbh->commit;",
                            "eval { $insert->execute(1, 'again', 9) };",
                            "print 'error ', $dbh->state, \"\\n\";",
                            "print 'updated ', $dbh->do('UPDATE tool SET weight = weight * 2 WHERE id = ?', undef, 2), \"\\n\";",
                            "my $rows = $dbh->selectall_arrayref('SELECT id, name, weight FROM tool WHERE id > ? ORDER BY id',"
                                    + " undef, 0);",
                            "print join(' ', 'row', @$_), \"\\n\" for @$rows;",
                            "$dbh->disconnect;",
                            ""));
            String output = PostgresClientPrograms.run(
                    List.of(
                            PERL,
                            script.toString(),
                            String.valueOf(raidb.controller().pgPort())),
                    60);
            assertThat(output)
                    .contains("error 23505")
                    .contains("updated 1")
                    .contains("row 1 hammer 1.50")
                    .contains("row 2 saw 1.50")
                    .contains("row 3 pliers' 0.30");
            raidb.assertEveryBackendEnabled();
        }
        ReplicaChecks.assertIdentical(pg.cluster().servers());
        ReplicaChecks.assertRowsOnEach(pg.cluster().servers(), "SELECT count(*), sum(weight) FROM tool", "3|3.30|");
    }
}
