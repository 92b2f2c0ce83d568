package org.raidb.controller.jdbcurl;

import java.util.function.Predicate;

/**
 * A driver option the controller will not connect with, and why.
 *
 * @param name the option as its driver documents it (matched ignoring case)
 * @param scope where it is refused
 * @param why completes "it ...", for the refusal message
 * @param harmless values that do not do what {@code why} says (the option's off switch), accepted anywhere
 */
record RefusedParameter(String name, Scope scope, String why, Predicate<String> harmless) {

    /** Where an option is refused. */
    enum Scope {
        /** Makes the controller load a class, run code, or write or serve files: no one may ask for that. */
        EVERYWHERE,
        /**
         * Makes the driver read the controller host's files, credentials or local sockets: the
         * configuration file's owner may (they own the host), a virtual database's admin may not.
         */
        ADMIN_API
    }

    static RefusedParameter everywhere(String name, String why) {
        return new RefusedParameter(name, Scope.EVERYWHERE, why, value -> false);
    }

    /** Refused everywhere unless set to {@code off}, its harmless value. */
    static RefusedParameter everywhereUnless(String name, String off, String why) {
        return new RefusedParameter(
                name, Scope.EVERYWHERE, why, value -> value.trim().equalsIgnoreCase(off));
    }

    static RefusedParameter fromAdmin(String name, String why) {
        return new RefusedParameter(name, Scope.ADMIN_API, why, value -> false);
    }

    static RefusedParameter fromAdmin(String name, String why, Predicate<String> harmless) {
        return new RefusedParameter(name, Scope.ADMIN_API, why, harmless);
    }

    /**
     * Whether a key names this option. {@code equalsIgnoreCase} folds both ways, as the drivers do (H2
     * upper-cases in English, where a dotless 'ı' is an 'I').
     */
    boolean isNamed(String key) {
        return key.equalsIgnoreCase(name);
    }
}
