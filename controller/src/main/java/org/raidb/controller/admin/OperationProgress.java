package org.raidb.controller.admin;

/**
 * What {@code GET /api/operations} shows of an {@link Operation}; the JSON field names are these component names.
 *
 * @param total null while the size is unknown
 * @param ratePerSecond units per second since the start, null before any time has passed
 * @param secondsLeft estimated at the current rate, null when finished or when the total or rate is unknown
 * @param ended null while running
 */
public record OperationProgress(
        long id,
        String kind,
        String virtualDatabase,
        String target,
        String unit,
        String state,
        String started,
        String ended,
        long done,
        Long total,
        Double ratePerSecond,
        Long secondsLeft,
        String message) {}
