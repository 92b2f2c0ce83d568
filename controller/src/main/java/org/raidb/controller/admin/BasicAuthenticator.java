package org.raidb.controller.admin;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.raidb.controller.vdb.VirtualDatabase;

/**
 * Checks an HTTP Basic {@code Authorization} header against the {@code <admin>} of every virtual database. The
 * virtual databases keep the passwords; nothing is copied here.
 */
final class BasicAuthenticator {
  private final Collection<VirtualDatabase> virtualDatabases;

  BasicAuthenticator(Collection<VirtualDatabase> virtualDatabases) {
    this.virtualDatabases = virtualDatabases;
  }

  /** The administrator, or empty when the header is missing, malformed or matches no virtual database's admin. */
  Optional<AdminPrincipal> authenticate(String authorizationHeader) {
    if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Basic ", 0, 6)) {
      return Optional.empty();
    }
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(authorizationHeader.substring(6).trim()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException notBase64) {
      return Optional.empty();
    }
    int colon = decoded.indexOf(':');
    if (colon < 0) {
      return Optional.empty();
    }
    String user = decoded.substring(0, colon);
    String password = decoded.substring(colon + 1);
    Set<String> administered = new TreeSet<>();
    for (VirtualDatabase vdb : virtualDatabases) {
      if (vdb.authentication().isAdmin(user, password)) {
        administered.add(vdb.name());
      }
    }
    return administered.isEmpty() ? Optional.empty() : Optional.of(new AdminPrincipal(user, Set.copyOf(administered)));
  }
}
