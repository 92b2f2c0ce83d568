package org.raidb.controller.transaction;

/**
 * A unit of work the recovery log's write gate waits for before a backend joins: an auto-commit write
 * until every backend answered, or a transaction from its first logged statement to its end. Closing
 * it ends the unit; closing it again does nothing, so that the one place that owns it may close it
 * from whichever thread finishes the work.
 */
public interface WriteUnit extends AutoCloseable {
    /** No unit: the virtual database keeps no log, or the unit is its transaction's. */
    WriteUnit NONE = () -> {};

    @Override
    void close();
}
