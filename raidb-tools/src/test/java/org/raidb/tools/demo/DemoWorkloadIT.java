package org.raidb.tools.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tools.demo.ReplicaReport.Replica;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoWorkloadIT {

    private static final Logger log = LoggerFactory.getLogger(DemoWorkloadIT.class);

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(2).database("shop");

    @Test
    @Order(1)
    void workloadRunsThroughAPlainConnectionAndLeavesTheExpectedRows() throws SQLException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        WorkloadSummary summary;
        try (Connection c = pg.server(0).connect();
                PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            summary = DemoWorkload.run(c, out);
            assertThat(c.getAutoCommit()).as("autocommit restored").isTrue();
            for (Map.Entry<String, Long> e : summary.rowCounts().entrySet()) {
                assertThat(TableChecksum.rowCount(c, e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
            }
        }
        String printed = bytes.toString(StandardCharsets.UTF_8);
        log.info("workload output:\n{}", printed.replace("\r", "\n"));
        assertThat(printed)
                .contains("\r[" + "#".repeat(30) + "] 100% inserts 5,100/5,100")
                .contains("100% updates")
                .contains("100% transactions")
                .contains("0 of their orders present")
                .contains("SQLState 23503")
                .contains("workload done in");
        assertThat(summary.inserts())
                .isEqualTo(
                        DemoWorkload.CUSTOMERS + DemoWorkload.PRODUCTS + DemoWorkload.ORDERS + DemoWorkload.PURCHASES);
        assertThat(summary.committedTransactions()).isEqualTo(DemoWorkload.PURCHASES);
        assertThat(summary.rolledBackTransactions()).isEqualTo(DemoWorkload.ROLLED_BACK_PURCHASES + 1);
        assertThat(summary.deletes()).isPositive();
        assertThat(summary.updates()).isGreaterThan(DemoWorkload.BALANCE_ADJUSTMENTS);
        assertThat(summary.rowCounts()).containsOnlyKeys("customers", "products", "orders");
        assertThat(summary.rowCounts().get("products")).isEqualTo(DemoWorkload.PRODUCTS);
        assertThat(summary.rowCounts().get("customers")).isBetween(900L, (long) DemoWorkload.CUSTOMERS);
        assertThat(summary.rowCounts().get("orders"))
                .isBetween(2_500L, (long) DemoWorkload.ORDERS + DemoWorkload.PURCHASES);
    }

    @Test
    @Order(2)
    void theSameWorkloadOnAnotherServerGivesIdenticalReplicas() throws SQLException {
        try (Connection c = pg.server(1).connect()) {
            DemoWorkload.run(c, new PrintStream(PrintStream.nullOutputStream()));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean identical;
        try (Connection a = pg.server(0).connect();
                Connection b = pg.server(1).connect()) {
            identical = ReplicaReport.print(List.of(new Replica("pg1", a), new Replica("pg2", b)), printStream(bytes));
        }
        String report = bytes.toString(StandardCharsets.UTF_8);
        log.info("report:\n{}", report);
        assertThat(identical).isTrue();
        List<String> lines = report.lines().toList();
        assertThat(lines.get(0)).matches("table\\s+pg1\\s+pg2");
        assertThat(lines).hasSize(5);
        assertThat(lines.get(1)).matches("customers\\s+[\\d,]+ [0-9a-f]{12}\\s+[\\d,]+ [0-9a-f]{12}");
        assertThat(lines.get(4)).isEqualTo("all 2 replicas identical");
    }

    @Test
    @Order(3)
    void runningTheWorkloadAgainGivesTheSameContents() throws SQLException {
        try (Connection c = pg.server(0).connect()) {
            Map<String, String> first = TableChecksum.checksums(c);
            DemoWorkload.run(c, new PrintStream(PrintStream.nullOutputStream()));
            assertThat(TableChecksum.checksums(c)).isEqualTo(first);
        }
    }

    @Test
    @Order(4)
    void oneChangedRowMakesTheReportSayWhichTableDiffers() throws SQLException {
        try (Connection b = pg.server(1).connect();
                Statement s = b.createStatement()) {
            s.executeUpdate("UPDATE orders SET quantity = quantity + 1 WHERE id = (SELECT min(id) FROM orders)");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean identical;
        try (Connection a = pg.server(0).connect();
                Connection b = pg.server(1).connect()) {
            identical = ReplicaReport.print(List.of(new Replica("pg1", a), new Replica("pg2", b)), printStream(bytes));
        }
        String report = bytes.toString(StandardCharsets.UTF_8);
        log.info("report:\n{}", report);
        assertThat(identical).isFalse();
        assertThat(report.lines().reduce((x, y) -> y).orElseThrow()).isEqualTo("replicas differ: orders (pg1 | pg2)");
    }

    @Test
    @Order(5)
    void aTableMissingOnOneReplicaIsReported() throws SQLException {
        try (Connection b = pg.server(1).connect();
                Statement s = b.createStatement()) {
            s.execute("CREATE TABLE extra (id int)");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (Connection a = pg.server(0).connect();
                Connection b = pg.server(1).connect()) {
            assertThat(ReplicaReport.print(List.of(new Replica("pg1", a), new Replica("pg2", b)), printStream(bytes)))
                    .isFalse();
        }
        String report = bytes.toString(StandardCharsets.UTF_8);
        assertThat(report).containsPattern("extra\\s+-\\s+0 [0-9a-f]{12}");
        assertThat(report).contains("extra (pg1 missing | pg2)");
    }

    private static PrintStream printStream(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
