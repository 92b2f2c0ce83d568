package org.raidb.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deletes a directory tree, best effort (logged, never thrown: this runs during cleanup). */
final class DirectoryCleaner {

    private static final Logger log = LoggerFactory.getLogger(DirectoryCleaner.class);

    private DirectoryCleaner() {}

    static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(DirectoryCleaner::deleteOne);
        } catch (IOException e) {
            log.warn("could not delete {}: {}", root, e.toString());
        }
    }

    private static void deleteOne(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            log.warn("could not delete {}: {}", path, e.toString());
        }
    }
}
