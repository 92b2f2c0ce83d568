package org.raidb.controller.config;

import java.util.List;

/**
 * One {@code <backend>}: a real database reached with a JDBC URL.
 *
 * @param user login used when no {@code <login>} maps the virtual user
 * @param weight share of reads for weighted policies (default 1)
 * @param poolSize maximum pooled connections per real login (default 20)
 * @param logins per-virtual-user real logins
 * @param tables the tables the backend holds, as configured ({@code <table name="…"/>}); null when they
 *     are read from the backend's schema
 */
public record BackendConfig(
        String name,
        String url,
        String user,
        String password,
        int weight,
        int poolSize,
        List<LoginConfig> logins,
        List<String> tables) {

    /** A backend whose tables are read from its schema. */
    public BackendConfig(
            String name, String url, String user, String password, int weight, int poolSize, List<LoginConfig> logins) {
        this(name, url, user, password, weight, poolSize, logins, null);
    }

    /** The real login for a virtual user: its {@code <login>} if any, else the backend's own user. */
    public LoginConfig loginFor(String virtualUser) {
        // A loop, not a stream: this runs for every connection a session borrows.
        for (LoginConfig l : logins) {
            if (l.virtualUser().equals(virtualUser)) {
                return l;
            }
        }
        return new LoginConfig(virtualUser, user, password);
    }
}
