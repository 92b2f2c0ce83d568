package org.raidb.controller.pgwire;

/**
 * One column of a RowDescription.
 *
 * @param format 0 text, 1 binary
 */
record PgField(String name, PgType type, int format) {}
