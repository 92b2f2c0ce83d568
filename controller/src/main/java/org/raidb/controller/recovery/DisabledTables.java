package org.raidb.controller.recovery;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.raidb.controller.backend.DatabaseBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables disabled on each backend (RAIDb-2: a write to them failed there while it succeeded
 * elsewhere), kept in {@code <dataDir>/disabled-tables/<vdb>.json}: a restarted controller must not
 * serve those stale copies again. They stay until the backend is restored from a dump.
 */
public final class DisabledTables {
    private static final Logger log = LoggerFactory.getLogger(DisabledTables.class);

    private final Path file;

    public DisabledTables(Path dataDir, String vdb) {
        this.file = dataDir.resolve("disabled-tables").resolve(vdb + ".json");
    }

    /** Disables again, on each backend, the tables recorded for it. */
    public synchronized void applyTo(List<DatabaseBackend> backends) {
        if (!Files.isRegularFile(file)) {
            return;
        }
        Map<String, List<String>> recorded;
        try {
            recorded = JsonFile.JSON.readValue(file.toFile(), new TypeReference<Map<String, List<String>>>() {});
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot read the disabled tables from " + file + ": " + e.getMessage()
                            + "; fix that file (deleting it would serve stale copies again)",
                    e);
        }
        for (DatabaseBackend b : backends) {
            List<String> tables = recorded.get(b.name());
            if (tables != null && !tables.isEmpty()) {
                b.tables().disable(tables);
                log.warn(
                        "backend {}: tables {} stay disabled (stale copies; restore the backend from a dump)",
                        b.name(),
                        tables);
            }
        }
    }

    /** Records the backends' disabled tables as they are now. */
    public synchronized void save(List<DatabaseBackend> backends) {
        Map<String, List<String>> now = new TreeMap<>();
        for (DatabaseBackend b : backends) {
            if (!b.tables().disabled().isEmpty()) {
                now.put(b.name(), List.copyOf(b.tables().disabled()));
            }
        }
        try {
            JsonFile.writeAtomically(file, now);
        } catch (IOException e) {
            // The tables are disabled in memory all the same; only a restart would forget them.
            log.error(
                    "cannot record the disabled tables in {}: {}; after a restart, disable those backends by hand",
                    file,
                    e.getMessage());
        }
    }
}
