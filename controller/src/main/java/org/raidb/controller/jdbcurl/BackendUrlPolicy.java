package org.raidb.controller.jdbcurl;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import org.raidb.controller.jdbcurl.JdbcUrl.Parameter;

/**
 * Which JDBC URLs the controller connects with. Connecting is running the driver, with whatever the
 * URL tells it to do, inside the controller: a URL may name classes to instantiate, scripts to run,
 * files to read or write. So backends (and recovery-log stores) are limited to the drivers the product
 * supports, without the options of {@link RefusedParameters}; H2, whose URLs open files and run SQL on
 * the controller's host, only from the configuration file unless its owner lets administrators add it.
 *
 * <p>The configuration file's owner is trusted with the controller's host; a virtual database's
 * administrator is trusted with that virtual database only. Hence the two policies.
 */
public final class BackendUrlPolicy {
    /** The attribute of {@code <controller>} that lets administrators add H2 backends. */
    public static final String H2_FROM_ADMIN_ATTRIBUTE = "allowH2BackendsFromAdmin";

    private static final String LISTED = "docs/admin.md, section Security, lists the refused parameters";

    private final boolean fromAdmin;
    private final boolean h2Allowed;

    private BackendUrlPolicy(boolean fromAdmin, boolean h2Allowed) {
        this.fromAdmin = fromAdmin;
        this.h2Allowed = h2Allowed;
    }

    /** For URLs written in the configuration file: every supported driver, no option that runs code or writes files. */
    public static BackendUrlPolicy configurationFile() {
        return new BackendUrlPolicy(false, true);
    }

    /**
     * For URLs given through the admin API: also no option that reads the controller host's files or
     * credentials, and H2 only when {@code h2Allowed}.
     */
    public static BackendUrlPolicy adminApi(boolean h2Allowed) {
        return new BackendUrlPolicy(true, h2Allowed);
    }

    /**
     * Refuses a URL whose driver or parameters this policy does not allow.
     *
     * @throws RefusedUrlException naming the refused driver or parameter and what is allowed instead
     */
    public void check(String url) throws RefusedUrlException {
        JdbcUrl parsed = JdbcUrl.parse(url);
        Optional<DriverFamily> family = parsed.family().filter(f -> f != DriverFamily.H2 || h2Allowed);
        if (family.isEmpty()) {
            throw new RefusedUrlException(refusedDriver(url, parsed.family().isPresent()));
        }
        for (Parameter parameter : parsed.parameters()) {
            for (String name : parameter.names()) {
                checkParameter(family.get(), name, parameter.value());
            }
        }
    }

    private void checkParameter(DriverFamily family, String name, String value) throws RefusedUrlException {
        Optional<RefusedParameter> refused = RefusedParameters.find(family, name)
                .filter(p -> p.scope() == RefusedParameter.Scope.EVERYWHERE || fromAdmin)
                .filter(p -> !p.harmless().test(value));
        if (refused.isEmpty()) {
            if (!name.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
                // Every supported driver's options are plain ASCII names; anything else is an attempt to slip one past.
                throw new RefusedUrlException("JDBC URL parameter '" + name
                        + "' is refused: driver option names are plain" + " ASCII letters, digits and punctuation");
            }
            return;
        }
        RefusedParameter p = refused.get();
        if (p.scope() == RefusedParameter.Scope.EVERYWHERE) {
            throw new RefusedUrlException("JDBC URL parameter '" + name + "' is refused: with the " + family.product()
                    + " driver it " + p.why() + ". Remove it (" + LISTED + ")");
        }
        throw new RefusedUrlException("JDBC URL parameter '" + name + "' is refused from the admin API: with the "
                + family.product() + " driver it " + p.why()
                + ". Remove it, or have the configuration file's owner name this"
                + " backend there (" + LISTED + ")");
    }

    private String refusedDriver(String url, boolean isH2) {
        String allowed = Arrays.stream(DriverFamily.values())
                .filter(f -> f != DriverFamily.H2 || h2Allowed)
                .map(DriverFamily::describe)
                .collect(Collectors.joining(", "));
        if (isH2) {
            return "H2 URLs (jdbc:h2:) are refused from the admin API: H2 opens files on the controller's host and can run"
                    + " code inside the controller. Name an H2 backend in the configuration file, or have its owner set <controller "
                    + H2_FROM_ADMIN_ATTRIBUTE + "=\"true\">. Allowed here: " + allowed;
        }
        return "JDBC URL '" + JdbcUrl.withoutSecrets(url) + "' is refused: backends are reached with " + allowed
                + (h2Allowed ? "" : ", and H2 (jdbc:h2:) from the configuration file");
    }
}
