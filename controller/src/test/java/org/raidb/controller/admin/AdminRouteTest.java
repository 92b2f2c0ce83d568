package org.raidb.controller.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Route} path matching and {@link BackendSummary}'s URL without password. */
class AdminRouteTest {
  private final Route disable = new Route("POST", "/api/virtualdatabases/{vdb}/backends/{backend}/disable",
      (admin, p) -> ApiResponse.ok(p));

  @Test
  void namedSegmentsAreCapturedAndEverythingElseMustMatch() {
    assertThat(disable.match("/api/virtualdatabases/shop/backends/pg2/disable"))
        .isEqualTo(Map.of("vdb", "shop", "backend", "pg2"));
    assertThat(disable.match("/api/virtualdatabases/shop/backends/pg2/disable/")).containsEntry("backend", "pg2");
    assertThat(disable.match("/api/virtualdatabases/shop/backends/pg2/enable")).isNull();
    assertThat(disable.match("/api/virtualdatabases//backends/pg2/disable")).isNull();
    assertThat(disable.match("/api/virtualdatabases/shop/backends")).isNull();
  }

  @Test
  void passwordsAreHiddenFromBackendUrls() {
    assertThat(BackendSummary.withoutPassword("jdbc:postgresql://db:5432/shop?user=u&password=s3cret&ssl=true"))
        .isEqualTo("jdbc:postgresql://db:5432/shop?user=u&password=***&ssl=true");
    assertThat(BackendSummary.withoutPassword("jdbc:mariadb://root:s3cret@db:3306/shop"))
        .isEqualTo("jdbc:mariadb://root:***@db:3306/shop");
    assertThat(BackendSummary.withoutPassword("jdbc:postgresql://127.0.0.1:5432/shop"))
        .isEqualTo("jdbc:postgresql://127.0.0.1:5432/shop");
  }
}
