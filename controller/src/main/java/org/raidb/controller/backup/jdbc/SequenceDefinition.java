package org.raidb.controller.backup.jdbc;

/**
 * A sequence that belongs to no column (PostgreSQL CREATE SEQUENCE, MariaDB SEQUENCE, H2
 * SEQUENCE); sequences behind serial and identity columns travel with their column instead.
 *
 * @param nextValue what the next nextval returns
 */
public record SequenceDefinition(String name, long nextValue, long increment) {}
