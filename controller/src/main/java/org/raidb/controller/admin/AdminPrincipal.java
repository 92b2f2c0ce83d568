package org.raidb.controller.admin;

import java.util.Set;

/**
 * An authenticated administrator and the virtual databases it administers: the ones whose {@code <admin>} entry
 * has this user and password. One user may be the admin of several virtual databases.
 */
record AdminPrincipal(String user, Set<String> virtualDatabases) {

    boolean administers(String virtualDatabase) {
        return virtualDatabases.contains(virtualDatabase);
    }
}
