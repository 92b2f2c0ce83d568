package org.raidb.controller.defaults;

import java.util.List;

/**
 * A trigger whose body calls a non-deterministic built-in: each backend runs it with its own
 * values, and no rewriting of the statement can reach inside it.
 *
 * @param function the function the trigger runs (PostgreSQL), or null when the body is the trigger's own (MariaDB)
 * @param calls the calls found in the body, as written
 */
public record VolatileTrigger(String table, String name, String function, List<String> calls) {

    /** How warnings and refusals name it. */
    String describe() {
        return "trigger " + name + " on table " + table + (function == null ? "" : " (function " + function + ")")
                + " calls " + String.join(", ", calls);
    }
}
