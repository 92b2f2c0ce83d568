package org.raidb.tpcw.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code tpcw bench --configs raidb2-lprf,raidb0 --backends 2..3}, small scale, uncapped: RAIDb-0 on 2
 * backends (shopping_cart alone on the second, section 7.5.2) and on 3 (the third holds no table) and
 * RAIDb-2 LPRF on 3 (Table 2) replay the ordering trace with zero errors, every table identical
 * across its holders; the cell the paper gives no placement for (RAIDb-2 on 2) is skipped with a
 * reason.
 */
// Three controller processes, a backends process and a recording: 2 to 3 minutes on a loaded 2-core machine,
// the only test near the build's default of 5 minutes per test.
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class BenchPartialReplicationIT {

    @TempDir
    Path dir;

    @Test
    void raidb0AndRaidb2ReplayWithoutErrorsAndTheUndefinedCellIsSkipped() throws Exception {
        StringWriter out = new StringWriter();
        CommandLine cli = TpcwCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        // A 4 s recording: about 1,100 interactions and 3,500 statements, each of the fourteen interactions many
        // times over, replayed three times through a controller at some 250 statements/s. The assertions are about
        // errors, placement and identical copies; 8 s made the same checks on twice as many statements.
        int exit = cli.execute(
                "bench",
                "--mix",
                "ordering",
                "--configs",
                "raidb2-lprf,raidb0",
                "--backends",
                "2..3",
                "--items",
                "100",
                "--ebs",
                "1",
                "--sessions",
                "6",
                "--record-duration",
                "4s",
                "--backend-cpu",
                "0",
                "--out",
                dir.toString());
        assertThat(exit).as("exit code; output:%n%s", out).isZero();

        JsonNode json = new ObjectMapper().readTree(Files.readString(dir.resolve("results.json")));
        List<String> cells = new ArrayList<>();
        for (JsonNode r : json.get("results")) {
            cells.add(r.get("config").asText() + "@" + r.get("backends").asInt());
            assertThat(r.get("errors").asLong())
                    .as("errors of %s; output:%n%s", r, out)
                    .isZero();
            assertThat(r.get("statements").asLong()).as("statements of %s", r).isPositive();
            assertThat(r.get("replicasIdentical").asBoolean())
                    .as("copies of %s", r)
                    .isTrue();
        }
        assertThat(cells).containsExactlyInAnyOrder("raidb2-lprf@3", "raidb0@2", "raidb0@3");
        assertThat(json.get("skipped")).hasSize(1);
        assertThat(out.toString())
                .contains(
                        "ordering raidb2-lprf 2 backend(s): skipped, no placement: Table 2 of the paper gives RAIDb-2 placements for 3 to 6")
                .contains("ordering raidb2-lprf 3 backend(s): replicas identical")
                .contains("ordering raidb0 2 backend(s): replicas not compared (every table has a single copy)");
        assertThat(Files.readString(dir.resolve("work/raidb-raidb0-2.xml")))
                .contains("<table name=\"shopping_cart\"/>", "<raidb0/>");
        // The third backend holds no table, so none is listed: the controller reads the three schemas.
        assertThat(Files.readString(dir.resolve("work/raidb-raidb0-3.xml")))
                .contains("<raidb0/>")
                .doesNotContain("<table ");
    }
}
