package org.raidb.controller.config;

/**
 * The {@code <determinism>} element: what the controller accepts so that every backend does the same.
 *
 * @param refuseMultiStatements {@code multiStatements="refuse"}: a text holding several statements
 *     is refused (SQLState 0A000) instead of being classified from all of them
 * @param refuseVolatileTriggers {@code onVolatileTrigger="refuse"}: writes to a table with a trigger
 *     that calls now(), random() and the like fail (SQLState 0A000) instead of only being warned about
 *     at start-up and after DDL
 */
public record DeterminismConfig(boolean refuseMultiStatements, boolean refuseVolatileTriggers) {
    public static final DeterminismConfig DEFAULT = new DeterminismConfig(false, false);
}
