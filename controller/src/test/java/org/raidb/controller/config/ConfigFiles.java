package org.raidb.controller.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Where the repository's config/ folder is, seen from the controller module's tests. */
final class ConfigFiles {
    private ConfigFiles() {}

    static Path configDirectory() {
        Path dir = Path.of(System.getProperty("basedir", "."))
                .toAbsolutePath()
                .resolve("../config")
                .normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("config/ not found at " + dir);
        }
        return dir;
    }

    /** Every example configuration shipped in config/. */
    static List<Path> examples() throws Exception {
        try (Stream<Path> files = Files.list(configDirectory())) {
            return files.filter(f -> f.getFileName().toString().endsWith(".xml"))
                    .sorted()
                    .toList();
        }
    }
}
