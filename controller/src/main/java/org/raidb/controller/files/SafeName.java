package org.raidb.controller.files;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Names that clients and administrators choose and the controller turns into file names or identifiers
 * (dumps, checkpoints): letters, digits, '-', '_' and '.', not starting with '.', at most
 * {@value #MAX_LENGTH} characters. No separator, no "..", no NUL: such a name can only ever name a
 * file inside the directory it is meant for, and prints as itself in logs and consoles.
 */
public final class SafeName {
    public static final int MAX_LENGTH = 128;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]{0," + (MAX_LENGTH - 1) + "}");

    private SafeName() {}

    /** Why {@code name} is not a safe name, completing "invalid dump name 'x': "; empty when it is one. */
    public static Optional<String> problem(String name) {
        if (NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return Optional.of(
                name.length() > MAX_LENGTH
                        ? "at most " + MAX_LENGTH + " characters"
                        : "use letters, digits, '-', '_' and '.', not starting with '.' (no path separators)");
    }
}
