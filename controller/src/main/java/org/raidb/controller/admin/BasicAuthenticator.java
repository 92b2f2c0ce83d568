package org.raidb.controller.admin;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.raidb.controller.auth.LoginThrottle;
import org.raidb.controller.auth.LoginThrottledException;
import org.raidb.controller.config.ClientLimits;
import org.raidb.controller.vdb.VirtualDatabase;

/**
 * Checks an HTTP Basic {@code Authorization} header against the {@code <admin>} of every virtual database. The
 * virtual databases keep the passwords; nothing is copied here. Password guessing is slowed down by a
 * {@link LoginThrottle} of the admin port's own, configured like the driver port's.
 */
final class BasicAuthenticator {
    private final Collection<VirtualDatabase> virtualDatabases;
    private final LoginThrottle throttle;

    BasicAuthenticator(Collection<VirtualDatabase> virtualDatabases, ClientLimits limits) {
        this.virtualDatabases = virtualDatabases;
        this.throttle =
                new LoginThrottle(limits.loginAttemptsBeforeDelay(), Duration.ofMillis(limits.loginMaxDelayMillis()));
    }

    /**
     * The administrator, or empty when the header is missing, malformed or matches no virtual database's admin.
     *
     * @throws LoginThrottledException when too many attempts failed lately from {@code source} or as the header's user:
     *     the password was not checked
     */
    Optional<AdminPrincipal> authenticate(String authorizationHeader, InetAddress source)
            throws LoginThrottledException {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(
                    Base64.getDecoder().decode(authorizationHeader.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        return authenticate(decoded.substring(0, colon), decoded.substring(colon + 1), source);
    }

    /**
     * The administrator of that user and password (the web console's login form), or empty.
     *
     * @throws LoginThrottledException as for a Basic header
     */
    Optional<AdminPrincipal> authenticate(String user, String password, InetAddress source)
            throws LoginThrottledException {
        throttle.check(source, user);
        Set<String> administered = new TreeSet<>();
        for (VirtualDatabase vdb : virtualDatabases) {
            if (vdb.authentication().isAdmin(user, password)) {
                administered.add(vdb.name());
            }
        }
        if (administered.isEmpty()) {
            throttle.failed(source, user);
            return Optional.empty();
        }
        throttle.succeeded(source, user);
        return Optional.of(new AdminPrincipal(user, Set.copyOf(administered)));
    }
}
