package org.raidb.tpcw.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.raidb.tpcw.play.ConnectionFactory;
import org.raidb.tpcw.schema.TpcwSchema;
import org.raidb.tpcw.verify.TableChecksums;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tpcw checksum}: the TPC-W tables of several databases compared by per-table checksum, for
 * example the backends of a RAIDb virtual database after a replay (give each backend's own URL:
 * through the controller a read goes to one backend only).
 */
@Command(
        name = "checksum",
        mixinStandardHelpOptions = true,
        description =
                "Compare the TPC-W tables of several PostgreSQL databases by per-table checksum (row count and md5 "
                        + "of the sorted row md5s); exit 0 if all are identical, 1 otherwise.")
final class ChecksumCommand implements Callable<Integer> {

    @Option(
            names = "--url",
            required = true,
            paramLabel = "JDBC_URL",
            description =
                    "A PostgreSQL database to compare; repeat for each (at least two): jdbc:postgresql://host:port/tpcw.")
    List<String> urls;

    @Mixin
    CredentialOptions credentials;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (urls.size() < 2) {
            throw new ParameterException(spec.commandLine(), "give at least two --url to compare");
        }
        List<Map<String, String>> sums = new ArrayList<>();
        for (String url : urls) {
            try (Connection c = new ConnectionFactory(url, credentials.user, credentials.password).open()) {
                sums.add(TableChecksums.of(c));
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        for (int i = 0; i < urls.size(); i++) {
            out.printf(Locale.ROOT, "db%d = %s%n", i + 1, urls.get(i));
        }
        List<String> differing = TableChecksums.differing(sums);
        for (String table : TpcwSchema.TABLES) {
            out.printf(
                    Locale.ROOT,
                    "%-20s %-44s %s%n",
                    table,
                    sums.get(0).get(table),
                    differing.contains(table)
                            ? "DIFFERS: " + describe(sums, table)
                            : "identical in all " + urls.size());
        }
        out.println(
                differing.isEmpty()
                        ? "identical: every table has the same checksum in every database"
                        : "NOT identical: " + String.join(", ", differing));
        out.flush();
        return differing.isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private static String describe(List<Map<String, String>> sums, String table) {
        List<String> each = new ArrayList<>();
        for (int i = 0; i < sums.size(); i++) {
            each.add("db" + (i + 1) + " " + sums.get(i).get(table));
        }
        return String.join(", ", each);
    }
}
