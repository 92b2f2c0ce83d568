package org.raidb.controller.determinism;

/**
 * One non-deterministic built-in of one dialect.
 *
 * @param name as the dialect spells it; matched without regard to case
 * @param adjacentParenthesis the parenthesis must follow the name at once: MariaDB reads {@code
 *     NOW ()} as a call to a stored function named NOW
 * @param utc reports UTC whatever the session's zone (MariaDB's UTC_TIMESTAMP())
 */
record CallRule(
        String name, CallSyntax syntax, CallValue value, CallMoment moment, boolean utc, boolean adjacentParenthesis) {

    static CallRule time(String name, CallSyntax syntax, CallValue value, CallMoment moment) {
        return new CallRule(name, syntax, value, moment, false, false);
    }

    static CallRule utcTime(String name, CallSyntax syntax, CallValue value) {
        return new CallRule(name, syntax, value, CallMoment.STATEMENT_START, true, false);
    }

    /** MariaDB's NOW, CURDATE, CURTIME: only a call when "(" follows the name immediately. */
    static CallRule timeAdjacent(String name, CallSyntax syntax, CallValue value, CallMoment moment) {
        return new CallRule(name, syntax, value, moment, false, true);
    }

    static CallRule random(String name, CallValue value) {
        return new CallRule(name, CallSyntax.FUNCTION, value, CallMoment.NONE, false, false);
    }

    /**
     * Whether every call gives a value of its own (random(), a UUID, a fresh clock read), where now()
     * and its kin give one value to a whole statement or transaction.
     */
    boolean perCall() {
        return value == CallValue.RANDOM || value == CallValue.UUID || moment == CallMoment.CLOCK;
    }
}
