package org.raidb.controller.admin.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console's files, read once from the class path (they are in the controller's jar): only the names listed
 * here are served, so no request path can reach any other resource.
 */
final class ConsoleAssets {
    static final String LOGIN_PAGE = "login.html";
    static final String MAIN_PAGE = "index.html";

    private static final String DIRECTORY = "console/";
    private static final List<String> FILES = List.of(
            LOGIN_PAGE,
            MAIN_PAGE,
            "console.css",
            "api.js",
            "dom.js",
            "login.js",
            "console.js",
            "views.js",
            "charts.js",
            "operations.js");

    /** A file's bytes and the Content-Type it is served with. */
    static final class Asset {
        private final byte[] bytes;
        private final String contentType;

        Asset(byte[] bytes, String contentType) {
            this.bytes = bytes;
            this.contentType = contentType;
        }

        /** Shared: the caller writes them out and never changes them. */
        byte[] bytes() {
            return bytes;
        }

        String contentType() {
            return contentType;
        }
    }

    private final Map<String, Asset> byName = new HashMap<>();

    ConsoleAssets() {
        for (String name : FILES) {
            try (InputStream in = ConsoleAssets.class.getResourceAsStream(DIRECTORY + name)) {
                if (in == null) {
                    throw new IllegalStateException(
                            "console file " + DIRECTORY + name + " missing from the class path");
                }
                byName.put(name, new Asset(in.readAllBytes(), contentType(name)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read console file " + name, e);
            }
        }
    }

    Optional<Asset> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    private static String contentType(String name) {
        // Module scripts are refused by browsers unless served as JavaScript.
        if (name.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (name.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        return "text/javascript; charset=utf-8";
    }
}
