package org.raidb.controller.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import org.raidb.controller.config.AuthenticationConfig;
import org.raidb.controller.config.UserCredentials;
import org.raidb.driver.protocol.SqlStates;

/**
 * Checks virtual users of one virtual database. Runs before any backend is touched, and answers an
 * unknown user exactly like a wrong password so that user names cannot be probed.
 */
public final class AuthenticationManager {
    private final String virtualDatabase;
    private final Map<String, byte[]> passwords = new HashMap<>();
    private final UserCredentials admin;

    public AuthenticationManager(String virtualDatabase, AuthenticationConfig config) {
        this.virtualDatabase = virtualDatabase;
        for (UserCredentials u : config.virtualUsers()) {
            passwords.put(u.name(), u.password().getBytes(StandardCharsets.UTF_8));
        }
        this.admin = config.admin();
    }

    public void authenticateVirtualUser(String user, String password) throws SQLException {
        byte[] expected = user == null ? null : passwords.get(user);
        byte[] given = (password == null ? "" : password).getBytes(StandardCharsets.UTF_8);
        // Compare even for an unknown user so that both cases take the same time.
        boolean ok = MessageDigest.isEqual(expected == null ? new byte[0] : expected, given) && expected != null;
        if (!ok) {
            throw new SQLException(
                    "password authentication failed for user \"" + user + "\" on virtual database \"" + virtualDatabase
                            + "\": check the user and password against the virtual database's <virtualUser> entries",
                    SqlStates.INVALID_PASSWORD);
        }
    }

    /**
     * A virtual user's password, or null for an unknown user: for logins that prove it without sending it
     * (the PostgreSQL front end's SCRAM-SHA-256 and md5), which derive their check from it. A copy.
     */
    public byte[] virtualUserPassword(String user) {
        byte[] p = user == null ? null : passwords.get(user);
        return p == null ? null : p.clone();
    }

    public boolean isAdmin(String user, String password) {
        return admin != null
                && admin.name().equals(user)
                && MessageDigest.isEqual(
                        admin.password().getBytes(StandardCharsets.UTF_8),
                        (password == null ? "" : password).getBytes(StandardCharsets.UTF_8));
    }
}
