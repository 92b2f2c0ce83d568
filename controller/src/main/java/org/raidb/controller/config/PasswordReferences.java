package org.raidb.controller.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Replaces every password given as {@code ${NAME}} (backends and their logins, virtual users, admins, the
 * recovery log's store, the TLS key store) by the environment variable's value, once the file is bound.
 *
 * <p>An unset variable is a configuration error at the element that names it, found on the file as written
 * (so that it has a line and column), before anything starts.
 */
final class PasswordReferences {
    /** The attributes that hold a secret; a reference anywhere else is taken as written. */
    static final Set<String> SECRET_ATTRIBUTES = Set.of("password", "keyStorePassword");

    private PasswordReferences() {}

    static void resolve(ConfigXml xml, ElementLocations locations, String source, EnvironmentReference env)
            throws ConfigException {
        List<String> problems = new ArrayList<>();
        for (ElementLocations.Located e : locations.all()) {
            for (String attribute : SECRET_ATTRIBUTES) {
                String value = e.attribute(attribute);
                if (value != null && !env.isSet(value)) {
                    problems.add(new SourcePosition(source, e.line(), e.column())
                            .describe(EnvironmentReference.unsetMessage(describe(e) + " " + attribute, value)));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(String.join("\n", problems));
        }
        substitute(xml, env);
    }

    /** {@code <backend name="pg1">}: the element and what tells it from its siblings. */
    private static String describe(ElementLocations.Located e) {
        for (String key : List.of("name", "user", "virtualUser", "keyStore")) {
            if (e.attribute(key) != null) {
                return "<" + e.name() + " " + key + "=\"" + e.attribute(key) + "\">";
            }
        }
        return "<" + e.name() + ">";
    }

    private static void substitute(ConfigXml xml, EnvironmentReference env) throws ConfigException {
        if (xml.controller != null && xml.controller.tls != null) {
            xml.controller.tls.keyStorePassword = env.resolve(xml.controller.tls.keyStorePassword, "<tls>");
        }
        for (ConfigXml.VirtualDatabaseXml vdb : xml.virtualDatabases) {
            if (vdb.authentication != null) {
                if (vdb.authentication.admin != null) {
                    vdb.authentication.admin.password = env.resolve(vdb.authentication.admin.password, "<admin>");
                }
                for (ConfigXml.VirtualUserXml u : vdb.authentication.virtualUsers) {
                    u.password = env.resolve(u.password, "<virtualUser>");
                }
            }
            for (ConfigXml.BackendXml b : vdb.backends) {
                b.password = env.resolve(b.password, "<backend>");
                for (ConfigXml.LoginXml l : b.logins) {
                    l.password = env.resolve(l.password, "<login>");
                }
            }
            if (vdb.recoveryLog != null) {
                vdb.recoveryLog.password = env.resolve(vdb.recoveryLog.password, "<recoveryLog>");
            }
        }
    }
}
