package org.raidb.tools.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.Controller;
import org.raidb.controller.admin.AdminTestController;
import org.raidb.controller.backend.BackendState;
import org.raidb.test.PostgresClusterExtension;

/** {@code raidb console -c ...} as a script runs it: output, error message and exit status. */
class ConsoleIT {
    @RegisterExtension
    static final PostgresClusterExtension pg =
            PostgresClusterExtension.servers(2).database("shop");

    private static Controller controller;

    @BeforeAll
    static void startController() throws Exception {
        controller = AdminTestController.start(pg);
    }

    @AfterAll
    static void stopController() {
        controller.close();
    }

    private static ConsoleRun asShopAdmin(String command) {
        return ConsoleRun.asShopAdmin(controller.adminPort(), command);
    }

    @Test
    void showBackendsPrintsATableOfTheBackends() {
        ConsoleRun run = asShopAdmin("show backends");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .startsWith("VDB   BACKEND  STATE")
                .contains("shop  pg1      enabled")
                .contains("shop  pg2      enabled")
                .doesNotContain("books");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void showVirtualDatabasesAndTheEmptyOperationList() {
        ConsoleRun vdbs = asShopAdmin("show virtualdatabases");
        assertThat(vdbs.exit()).isZero();
        assertThat(vdbs.out()).contains("shop  raidb1  optimisticTransaction  all         roundRobin   2/2 enabled");
        assertThat(asShopAdmin("show operations").out()).isEqualTo("no operations\n");
    }

    @Test
    void disableFromTheConsoleTakesTheBackendOut() {
        ConsoleRun run = ConsoleRun.console(
                "--url",
                "http://127.0.0.1:" + controller.adminPort(),
                "-u",
                "booksadmin",
                "-p",
                "bookspw",
                "-c",
                "disable pg2");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("backend pg2 disabled; 1 backend(s) left enabled");
        assertThat(controller.virtualDatabase("books").backends().get(1).state())
                .isEqualTo(BackendState.DISABLED);
        assertThat(controller.virtualDatabase("shop").backends().get(1).state()).isEqualTo(BackendState.ENABLED);
    }

    @Test
    void anUnknownCommandExits2WithAClearMessage() {
        ConsoleRun run = asShopAdmin("frobnicate");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("unknown command 'frobnicate': type 'help' for the list of commands");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aRefusedCommandExits1NamingWhatIsUnknownOrForbidden() {
        ConsoleRun unknown = asShopAdmin("disable pg9 in shop");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("error: unknown backend 'pg9' in virtual database 'shop'");
        ConsoleRun forbidden = asShopAdmin("show backends books");
        assertThat(forbidden.exit()).isEqualTo(1);
        assertThat(forbidden.err()).contains("not the admin of virtual database 'books'");
    }

    @Test
    void wrongCredentialsExit3() {
        ConsoleRun run = ConsoleRun.console(
                "--port", String.valueOf(controller.adminPort()), "--password", "wrong", "-c", "show backends");
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).contains("refused these credentials");
    }

    @Test
    void anUnreachableControllerExits3WithAMessage() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        ConsoleRun run = ConsoleRun.console(
                "--port", String.valueOf(closedPort), "--password", "x", "-c", "show virtualdatabases");
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err())
                .contains("cannot reach the controller's admin API at http://127.0.0.1:" + closedPort)
                .contains("connection refused")
                .doesNotContain("Exception");
    }
}
