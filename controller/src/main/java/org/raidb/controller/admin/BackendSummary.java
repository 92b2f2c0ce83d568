package org.raidb.controller.admin;

import java.util.List;
import java.util.regex.Pattern;
import org.raidb.controller.backend.DatabaseBackend;

/**
 * One line of {@code GET /api/virtualdatabases/{vdb}/backends}.
 *
 * @param lastCheckpoint the checkpoint a disabled backend stopped at (null while enabled, or when unknown)
 * @param tables the tables (views, sequences) the backend holds and serves, in name order: configured, or read
 *     from its schema and kept current by DDL
 * @param disabledTables tables whose copy on this backend was disabled after a write to it failed there (RAIDb-2)
 */
record BackendSummary(
    String name,
    String url,
    String state,
    String disabledReason,
    int pendingRequests,
    long requestsServed,
    int weight,
    String lastCheckpoint,
    List<String> tables,
    List<String> disabledTables) {

  // password=... in a query string (pgjdbc, MariaDB) and user:password@ in an authority (MariaDB).
  private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)([?&;]password=)[^&;]*");
  private static final Pattern PASSWORD_IN_AUTHORITY = Pattern.compile("(//[^/:@]+):[^/@]*@");

  static BackendSummary of(DatabaseBackend backend) {
    return new BackendSummary(backend.name(), withoutPassword(backend.config().url()),
        backend.state().name().toLowerCase(), backend.disabledReason(), backend.pendingRequests(),
        backend.requestsServed(), backend.weight(), backend.lastCheckpoint(), List.copyOf(backend.tables().served()),
        List.copyOf(backend.tables().disabled()));
  }

  /** The URL with any password replaced by ***: the API is read by people who may not know the backend's login. */
  static String withoutPassword(String url) {
    String noParameter = PASSWORD_PARAMETER.matcher(url).replaceAll("$1***");
    return PASSWORD_IN_AUTHORITY.matcher(noParameter).replaceAll("$1:***@");
  }
}
