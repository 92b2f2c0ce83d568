package org.raidb.embedded;

import java.nio.file.Files;
import java.nio.file.Path;

/** Whether this JVM runs as root: initdb and postgres refuse to, so launchers work around it. */
final class CurrentUser {

    private CurrentUser() {}

    static boolean isRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (Exception e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
