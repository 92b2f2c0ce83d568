package org.raidb.recovery;

/** A null statement parameter, with the {@link java.sql.Types} code it was bound with. */
public record SqlNull(int sqlType) {}
