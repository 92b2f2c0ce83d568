package org.raidb.tools.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.Controller;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.PostgresClusterExtension;

/** The demo's controller-group part: two controllers, one stopped, the client going on through the other. */
class GroupDemoIT {
    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(4).database("shop");

    @Test
    void twoControllersShowIdenticalBackendsAndTheClientGoesOnWhenTheFirstStops() throws Exception {
        List<Controller> members = new ArrayList<>();
        Map<Controller, List<EmbeddedPostgresServer>> backends = new java.util.HashMap<>();
        try {
            Path firstDir = Files.createTempDirectory("raidb-group-demo");
            for (int i = 0; i < 2; i++) {
                List<EmbeddedPostgresServer> own = List.of(pg.server(i), pg.server(i + 2));
                Integer first = i == 0 ? null : members.get(0).group("shop").groupPort();
                Controller c = Controller.start(
                        member(own, i == 0 ? firstDir : Files.createTempDirectory("raidb-group-demo"), first));
                members.add(c);
                backends.put(c, own);
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            boolean identical = GroupDemo.run(
                    members,
                    backends::get,
                    () -> Controller.start(member(
                            List.of(pg.server(0), pg.server(2)),
                            firstDir,
                            members.get(1).group("shop").groupPort())),
                    "shop",
                    "app",
                    "app",
                    new PrintStream(bytes, true, StandardCharsets.UTF_8));
            String printed = bytes.toString(StandardCharsets.UTF_8);
            assertThat(identical).as(printed).isTrue();
            assertThat(printed)
                    .contains("all 4 replicas identical")
                    .contains("The client goes on through controller 2: 10 products repriced")
                    .contains("all 2 replicas identical")
                    .contains("Controller 1 caught up from the group")
                    .contains("A client of controller 1 writes again: 10 products repriced");
            assertThat(printed.lastIndexOf("all 4 replicas identical"))
                    .as("identical again after the catch-up")
                    .isGreaterThan(printed.indexOf("all 2 replicas identical"));
        } finally {
            for (int i = members.size() - 1; i >= 0; i--) {
                members.get(i).close();
            }
        }
    }

    private static org.raidb.controller.config.RaidbConfig member(
            List<EmbeddedPostgresServer> own, Path dir, Integer firstMember) throws Exception {
        Path file = pg.controllerConfig("shop")
                .backends(own)
                .virtualUsers(Map.of("app", "app"))
                .extraXml("<controllerGroup name=\"demo\" bindPort=\"0\""
                        + (firstMember == null ? "" : " members=\"127.0.0.1:" + firstMember + "\"") + "/>")
                .dataDir(dir.resolve("data"))
                .writeTo(dir.resolve("raidb.xml"));
        return ConfigLoader.load(file);
    }
}
