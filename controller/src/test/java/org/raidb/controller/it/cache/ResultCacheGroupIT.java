package org.raidb.controller.it.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/**
 * Two controllers of a group, each with one backend of its own and a result cache: a write or a commit
 * through one drops what the other cached, because every member runs the group's writes through its
 * own request path.
 */
class ResultCacheGroupIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private ControllerFixture a;
    private ControllerFixture b;

    @BeforeEach
    void startGroup() throws Exception {
        pg.cluster().recreateDatabases();
        a = ControllerFixture.start(member(pg.server(0), null), "shop");
        b = ControllerFixture.start(
                member(pg.server(1), a.controller().group("shop").groupPort()), "shop");
    }

    @AfterEach
    void stopGroup() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    private static org.raidb.test.ControllerConfigXml member(EmbeddedPostgresServer backend, Integer firstMember) {
        return pg.controllerConfig("shop")
                .backends(List.of(backend))
                .extraXml("<controllerGroup name=\"shop-group\" bindPort=\"0\" completion=\"all\""
                        + (firstMember == null ? "" : " members=\"127.0.0.1:" + firstMember + "\"")
                        + "/>\n<resultCache/>");
    }

    private static String text(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void aWriteAndACommitThroughOneMemberDropWhatTheOtherCached() throws Exception {
        try (Connection ca = a.connect();
                Connection cb = b.connect()) {
            run(ca, "CREATE TABLE stock (id int PRIMARY KEY, qty int)");
            run(ca, "INSERT INTO stock VALUES (1, 10)");
            assertThat(text(ca, "SELECT qty FROM stock WHERE id = 1")).isEqualTo("10");
            try (Connection direct = pg.server(0).connect()) {
                run(direct, "UPDATE stock SET qty = -1 WHERE id = 1"); // behind A's back, on A's backend only
            }
            assertThat(text(ca, "SELECT qty FROM stock WHERE id = 1"))
                    .as("A answers from its cache")
                    .isEqualTo("10");

            run(cb, "UPDATE stock SET qty = 9 WHERE id = 1");
            assertThat(text(ca, "SELECT qty FROM stock WHERE id = 1"))
                    .as("B's write ran through A's request path and dropped A's entry")
                    .isEqualTo("9");

            cb.setAutoCommit(false);
            run(cb, "UPDATE stock SET qty = 8 WHERE id = 1");
            assertThat(text(ca, "SELECT qty FROM stock WHERE id = 1")).isEqualTo("9");
            assertThat(text(ca, "SELECT qty FROM stock WHERE id = 1")).isEqualTo("9");
            cb.commit();
            assertThat(text(ca, "SELECT qty FROM stock WHERE id = 1"))
                    .as("B's commit dropped what A cached while the transaction was open")
                    .isEqualTo("8");
            assertThat(a.controller()
                            .virtualDatabase("shop")
                            .resultCache()
                            .figures()
                            .hits())
                    .isPositive();
        }
    }
}
