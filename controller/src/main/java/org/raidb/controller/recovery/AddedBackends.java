package org.raidb.controller.recovery;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.config.BackendConfig;
import org.raidb.controller.jdbcurl.BackendUrlPolicy;
import org.raidb.controller.jdbcurl.RefusedUrlException;
import org.raidb.driver.protocol.SqlStates;

/**
 * Backends an administrator added online, kept in {@code <dataDir>/added-backends/<vdb>.json} so that
 * a restarted controller serves them too (the configuration file is the administrator's, not ours
 * to rewrite). Moving one into the configuration file and deleting it here is the tidy way to keep
 * it for good.
 */
public final class AddedBackends {

    private final Path file;

    public AddedBackends(Path dataDir, String vdb) {
        this.file = dataDir.resolve("added-backends").resolve(vdb + ".json");
    }

    /**
     * The backends added online. Their URLs pass the configuration file's URL check again: an entry written
     * by an older controller, or by hand, must not make this one run a driver option it refuses.
     */
    public synchronized List<BackendConfig> load() {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        List<BackendConfig> backends;
        try {
            backends = JsonFile.JSON.readValue(file.toFile(), new TypeReference<List<BackendConfig>>() {});
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cannot read the backends added online from " + file + ": " + e.getMessage()
                            + "; fix or delete that file",
                    e);
        }
        for (BackendConfig b : backends) {
            try {
                BackendUrlPolicy.configurationFile().check(b.url());
            } catch (RefusedUrlException e) {
                throw new IllegalStateException(
                        "backend " + b.name() + " in " + file + " was added online with a URL this"
                                + " controller refuses: " + e.getMessage() + ". Delete it from that file",
                        e);
            }
        }
        return backends;
    }

    synchronized void add(BackendConfig backend) throws java.sql.SQLException {
        List<BackendConfig> all = new ArrayList<>(load());
        all.add(backend);
        save(all);
    }

    synchronized void remove(String backendName) throws java.sql.SQLException {
        List<BackendConfig> all = new ArrayList<>(load());
        if (all.removeIf(b -> b.name().equals(backendName))) {
            save(all);
        }
    }

    private void save(List<BackendConfig> all) throws java.sql.SQLException {
        try {
            JsonFile.writeAtomically(file, all);
        } catch (IOException e) {
            throw new java.sql.SQLException(
                    "cannot record the new backend in " + file + ": " + e.getMessage(), SqlStates.IO_ERROR, e);
        }
    }
}
