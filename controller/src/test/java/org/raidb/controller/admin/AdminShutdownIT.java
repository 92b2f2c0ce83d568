package org.raidb.controller.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.Controller;
import org.raidb.controller.admin.client.AdminCallException;
import org.raidb.controller.admin.client.AdminClient;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.test.PostgresClusterExtension;

/** POST /api/shutdown answers first, then closes the controller: awaitTermination returns, ports close. */
class AdminShutdownIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    @Test
    void shutdownAnswers202ThenStopsTheController() throws Exception {
        Path dir = Files.createTempDirectory("raidb-shutdown-it");
        Controller controller = Controller.start(ConfigLoader.load(
                pg.controllerConfig("shop").dataDir(dir.resolve("data")).writeTo(dir.resolve("raidb.xml"))));
        try {
            CompletableFuture<Void> terminated = CompletableFuture.runAsync(() -> {
                try {
                    controller.awaitTermination();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            AdminClient client =
                    new AdminClient(URI.create("http://127.0.0.1:" + controller.adminPort()), "admin", "adminpw");
            assertThat(client.post("/api/shutdown").get("message").asText()).isEqualTo("controller shutting down");

            await().atMost(Duration.ofSeconds(20)).until(terminated::isDone);
            try {
                client.get("/api/virtualdatabases");
                throw new AssertionError("the admin API still answers after shutdown");
            } catch (AdminCallException e) {
                assertThat(e.status()).isEqualTo(AdminCallException.UNREACHABLE);
            }
            String url = "jdbc:raidb://127.0.0.1:" + controller.port() + "/shop";
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> DriverManager.getConnection(url, "app", "apppw"))
                    .isInstanceOf(java.sql.SQLException.class);
        } finally {
            controller.close();
        }
    }
}
