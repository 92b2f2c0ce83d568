package org.raidb.controller.backup.jdbc;

import java.util.List;

/** What jdbcCopy copies of a database's current schema, read before any data. */
public record DatabaseSchema(List<TableDefinition> tables, List<SequenceDefinition> sequences) {

    public DatabaseSchema {
        tables = List.copyOf(tables);
        sequences = List.copyOf(sequences);
    }
}
