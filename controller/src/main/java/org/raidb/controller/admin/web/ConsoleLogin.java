package org.raidb.controller.admin.web;

import java.net.InetAddress;
import java.util.Optional;
import org.raidb.controller.auth.LoginThrottledException;

/**
 * Checks the user and password typed into the login page, as the admin API checks HTTP Basic credentials.
 *
 * @param <P> the administrator the admin API works for
 */
@FunctionalInterface
public interface ConsoleLogin<P> {
    /**
     * The administrator, or empty for a wrong user or password.
     *
     * @throws LoginThrottledException when too many attempts failed lately: the password was not checked
     */
    Optional<P> check(String user, String password, InetAddress source) throws LoginThrottledException;
}
