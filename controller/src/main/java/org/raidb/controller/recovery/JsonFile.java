package org.raidb.controller.recovery;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.raidb.controller.files.PrivateFiles;

/**
 * The controller's small state files under its data directory, replaced whole so that a crash leaves the old or
 * the new one, and private: they hold backends' logins.
 */
final class JsonFile {
    static final ObjectMapper JSON = new ObjectMapper();

    private JsonFile() {}

    static void writeAtomically(Path file, Object value) throws IOException {
        PrivateFiles.writeAtomically(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(value));
    }
}
