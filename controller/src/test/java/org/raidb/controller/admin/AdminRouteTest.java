package org.raidb.controller.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Route} path matching. */
class AdminRouteTest {
    private final Route disable = new Route(
            "POST", "/api/virtualdatabases/{vdb}/backends/{backend}/disable", (admin, p) -> ApiResponse.ok(p));

    @Test
    void namedSegmentsAreCapturedAndEverythingElseMustMatch() {
        assertThat(disable.match("/api/virtualdatabases/shop/backends/pg2/disable"))
                .isEqualTo(Map.of("vdb", "shop", "backend", "pg2"));
        assertThat(disable.match("/api/virtualdatabases/shop/backends/pg2/disable/"))
                .containsEntry("backend", "pg2");
        assertThat(disable.match("/api/virtualdatabases/shop/backends/pg2/enable"))
                .isNull();
        assertThat(disable.match("/api/virtualdatabases//backends/pg2/disable")).isNull();
        assertThat(disable.match("/api/virtualdatabases/shop/backends")).isNull();
    }
}
