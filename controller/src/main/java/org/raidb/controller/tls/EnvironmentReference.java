package org.raidb.controller.tls;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.raidb.controller.config.ConfigException;

/**
 * A secret given in the configuration as {@code ${NAME}}: the environment variable NAME holds it, so
 * that the file can be committed without it.
 */
final class EnvironmentReference {
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private EnvironmentReference() {}

    /** The value itself, or the variable's when it is a reference; fails when the variable is not set. */
    static String resolve(String value, String where) throws ConfigException {
        Matcher m = REFERENCE.matcher(value);
        if (!m.matches()) {
            return value;
        }
        String v = System.getenv(m.group(1));
        if (v == null) {
            throw new ConfigException(where + " is " + value + ", but the controller's environment has no " + m.group(1)
                    + ": set it before starting the controller");
        }
        return v;
    }
}
