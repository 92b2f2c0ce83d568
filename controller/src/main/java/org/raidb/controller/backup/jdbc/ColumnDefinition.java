package org.raidb.controller.backup.jdbc;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A column as jdbcCopy recreates it.
 *
 * @param autoIncrementNext present for a serial, identity or AUTO_INCREMENT column: the value the
 *     next insert without a key gets
 */
public record ColumnDefinition(
        String name,
        ColumnType type,
        boolean nullable,
        OptionalLong autoIncrementNext,
        Optional<ColumnDefault> defaultValue) {

    public boolean isAutoIncrement() {
        return autoIncrementNext.isPresent();
    }
}
