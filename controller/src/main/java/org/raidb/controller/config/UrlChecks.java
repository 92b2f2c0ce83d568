package org.raidb.controller.config;

import java.util.List;
import org.raidb.controller.config.ElementLocations.Located;
import org.raidb.controller.jdbcurl.BackendUrlPolicy;
import org.raidb.controller.jdbcurl.RefusedUrlException;

/**
 * The JDBC URLs of a virtual database (its backends', its recovery-log store's) against {@link
 * BackendUrlPolicy#configurationFile()}: the file's owner may name any supported driver, H2 included,
 * but no option that runs code or writes files. Errors point at the element to change.
 */
final class UrlChecks {

    private UrlChecks() {}

    static void check(VirtualDatabaseConfig vdb, String source, ElementLocations locations, List<String> problems) {
        BackendUrlPolicy policy = BackendUrlPolicy.configurationFile();
        Located vdbElement = locations
                .firstAfter(null, "virtualDatabase", "name", vdb.name())
                .orElse(null);
        for (BackendConfig b : vdb.backends()) {
            try {
                policy.check(b.url());
            } catch (RefusedUrlException e) {
                Located at = locations
                        .firstAfter(vdbElement, "backend", "name", b.name())
                        .orElse(vdbElement);
                problems.add(
                        position(source, at).describe("<backend name=\"" + b.name() + "\"> url: " + e.getMessage()));
            }
        }
        String logUrl = vdb.recoveryLog().url();
        if (logUrl != null) {
            try {
                policy.check(logUrl);
            } catch (RefusedUrlException e) {
                Located at = locations.namedAfter(vdbElement, "recoveryLog", "virtualDatabase").stream()
                        .findFirst()
                        .orElse(vdbElement);
                problems.add(position(source, at).describe("<recoveryLog> url: " + e.getMessage()));
            }
        }
    }

    private static SourcePosition position(String source, Located at) {
        return at == null ? new SourcePosition(source, -1, -1) : new SourcePosition(source, at.line(), at.column());
    }
}
