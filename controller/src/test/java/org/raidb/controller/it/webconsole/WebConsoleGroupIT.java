package org.raidb.controller.it.webconsole;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/** The web console's controller group page, on a member of a group of two controllers, each with its backend. */
class WebConsoleGroupIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private static ControllerConfigXml member(EmbeddedPostgresServer backend, Integer firstMember) {
        return pg.controllerConfig("shop")
                .backends(List.of(backend))
                .extraXml("<controllerGroup name=\"console-group\" bindPort=\"0\" completion=\"all\""
                        + (firstMember == null ? "" : " members=\"127.0.0.1:" + firstMember + "\"") + "/>");
    }

    @Test
    void theGroupPageListsBothControllersWithTheWritesEachApplied() throws Exception {
        try (HeadlessChromium chromium = HeadlessChromium.start();
                ControllerFixture a = ControllerFixture.start(member(pg.server(0), null), "shop");
                ControllerFixture b = ControllerFixture.start(
                        member(pg.server(1), a.controller().group("shop").groupPort()), "shop")) {
            try (Connection c = b.connect();
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE events (id int PRIMARY KEY)");
                for (int i = 0; i < 20; i++) {
                    s.executeUpdate("INSERT INTO events VALUES (" + i + ")");
                }
            }
            String base = "http://127.0.0.1:" + a.controller().adminPort();
            chromium.logIn(base, "admin", "adminpw");
            chromium.driver.get(base + "/console/#group");

            By members = By.cssSelector("#view-group table.members tbody tr");
            await().atMost(HeadlessChromium.PATIENCE)
                    .until(() -> chromium.driver.findElements(members).size(), n -> n == 2);
            assertThat(chromium.text(By.cssSelector("#view-group .figures"))).startsWith("group console-group");
            assertThat(chromium.text(By.cssSelector("#view-group table.members")))
                    .contains("(this one)");
            chromium.screenshot("console-group");
        }
    }
}
