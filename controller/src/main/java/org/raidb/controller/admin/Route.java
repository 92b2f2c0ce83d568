package org.raidb.controller.admin;

import java.util.HashMap;
import java.util.Map;

/**
 * One endpoint: an HTTP method and a path pattern such as {@code /api/virtualdatabases/{vdb}/backends}, whose
 * {@code {name}} segments match any one path segment.
 */
record Route(String method, String pattern, Handler handler) {

    /** Answers a matched request; throws {@link AdminException} to refuse it. */
    @FunctionalInterface
    interface Handler {
        ApiResponse handle(AdminPrincipal admin, Map<String, String> pathParameters);
    }

    /** The {@code {name}} values when the path matches the pattern, else null. */
    Map<String, String> match(String path) {
        String[] want = pattern.split("/", -1);
        String[] got = stripTrailingSlash(path).split("/", -1);
        if (want.length != got.length) {
            return null;
        }
        Map<String, String> parameters = new HashMap<>();
        for (int i = 0; i < want.length; i++) {
            if (want[i].startsWith("{") && want[i].endsWith("}")) {
                if (got[i].isEmpty()) {
                    return null;
                }
                parameters.put(want[i].substring(1, want[i].length() - 1), got[i]);
            } else if (!want[i].equals(got[i])) {
                return null;
            }
        }
        return parameters;
    }

    private static String stripTrailingSlash(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
