package org.raidb.controller.recovery;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** The controller's small state files under its data directory, replaced whole so that a crash leaves the old or the new one. */
final class JsonFile {
  static final ObjectMapper JSON = new ObjectMapper();

  private JsonFile() {}

  static void writeAtomically(Path file, Object value) throws IOException {
    Files.createDirectories(file.getParent());
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    JSON.writerWithDefaultPrettyPrinter().writeValue(partial.toFile(), value);
    Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
