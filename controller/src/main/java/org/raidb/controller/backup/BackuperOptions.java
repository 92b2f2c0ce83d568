package org.raidb.controller.backup;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The options a backuper was configured with, checked against the ones it knows: a misspelt option
 * is an error naming the backuper, the option and the valid ones, never silently ignored.
 */
public final class BackuperOptions {

    private final String backuper;
    private final Map<String, String> values;

    private BackuperOptions(String backuper, Map<String, String> values) {
        this.backuper = backuper;
        this.values = values;
    }

    /**
     * The options of {@code backuper}, once checked against those it knows.
     *
     * @throws IllegalArgumentException for an option not in {@code known}
     */
    public static BackuperOptions check(String backuper, Map<String, String> values, Set<String> known) {
        Map<String, String> copy = Map.copyOf(values);
        for (String key : copy.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException("backuper " + backuper + ": unknown option '" + key
                        + "'; valid options: " + (known.isEmpty() ? "none" : String.join(", ", new TreeSet<>(known))));
            }
        }
        return new BackuperOptions(backuper, copy);
    }

    public String string(String key, String defaultValue) {
        return values.getOrDefault(key, defaultValue);
    }

    public Optional<Path> path(String key) {
        String value = values.get(key);
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(value.trim()));
        } catch (InvalidPathException e) {
            throw invalid(key, value, "a file system path");
        }
    }

    public int positiveInt(String key, int defaultValue) {
        String value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below, with the valid range
        }
        throw invalid(key, value, "a positive integer");
    }

    private IllegalArgumentException invalid(String key, String value, String expected) {
        return new IllegalArgumentException(
                "backuper " + backuper + ": option " + key + "='" + value + "' must be " + expected);
    }
}
