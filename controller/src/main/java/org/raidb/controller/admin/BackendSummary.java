package org.raidb.controller.admin;

import java.util.regex.Pattern;
import org.raidb.controller.backend.DatabaseBackend;

/**
 * One line of {@code GET /api/virtualdatabases/{vdb}/backends}.
 *
 * @param lastCheckpoint the checkpoint the backend was last consistent with; always null until the recovery log
 *     records checkpoints, but present so that clients can rely on the field
 */
record BackendSummary(
    String name,
    String url,
    String state,
    String disabledReason,
    int pendingRequests,
    long requestsServed,
    int weight,
    String lastCheckpoint) {

  // password=... in a query string (pgjdbc, MariaDB) and user:password@ in an authority (MariaDB).
  private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)([?&;]password=)[^&;]*");
  private static final Pattern PASSWORD_IN_AUTHORITY = Pattern.compile("(//[^/:@]+):[^/@]*@");

  static BackendSummary of(DatabaseBackend backend) {
    return new BackendSummary(backend.name(), withoutPassword(backend.config().url()),
        backend.state().name().toLowerCase(), backend.disabledReason(), backend.pendingRequests(),
        backend.requestsServed(), backend.weight(), backend.lastCheckpoint());
  }

  /** The URL with any password replaced by ***: the API is read by people who may not know the backend's login. */
  static String withoutPassword(String url) {
    String noParameter = PASSWORD_PARAMETER.matcher(url).replaceAll("$1***");
    return PASSWORD_IN_AUTHORITY.matcher(noParameter).replaceAll("$1:***@");
  }
}
