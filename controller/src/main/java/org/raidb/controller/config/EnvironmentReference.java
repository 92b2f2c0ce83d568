package org.raidb.controller.config;

import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A secret given in the configuration as {@code ${NAME}}: the environment variable NAME holds it, so that the
 * file can be committed without it. Only a whole value is a reference; {@code pre${NAME}} is taken as written.
 */
public final class EnvironmentReference {
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    /** The controller process's own environment. */
    public static final EnvironmentReference PROCESS = new EnvironmentReference(System::getenv);

    private final UnaryOperator<String> lookup;

    /** @param lookup a variable's value, or null when it is not set (tests give a map's {@code get}) */
    public EnvironmentReference(UnaryOperator<String> lookup) {
        this.lookup = lookup;
    }

    /** The variable a value refers to, if it is a reference. */
    public static Optional<String> variable(String value) {
        if (value == null) {
            return Optional.empty();
        }
        Matcher m = REFERENCE.matcher(value);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** Whether the variable a value refers to is set (true for a value that is no reference). */
    boolean isSet(String value) {
        return variable(value).map(name -> lookup.apply(name) != null).orElse(true);
    }

    /**
     * The value itself, or the variable's when it is a reference; fails naming {@code where} (the element and
     * attribute) when the variable is not set.
     */
    public String resolve(String value, String where) throws ConfigException {
        Optional<String> name = variable(value);
        if (name.isEmpty()) {
            return value;
        }
        String v = lookup.apply(name.get());
        if (v == null) {
            throw new ConfigException(unsetMessage(where, value));
        }
        return v;
    }

    static String unsetMessage(String where, String value) {
        String name = variable(value).orElseThrow();
        return where + " is " + value + ", but the controller's environment has no " + name
                + ": set it before starting the controller";
    }
}
