package org.raidb.controller.pgwire;

import org.raidb.driver.protocol.ColumnInfo;

/**
 * One column of a RowDescription.
 *
 * @param typmod pg_attribute.atttypmod: varchar(5), numeric(10,2), timestamp(3); -1 for none
 * @param format 0 text, 1 binary
 */
record PgField(String name, PgType type, int typmod, int format) {

    /** A result column as the backend described it. */
    static PgField of(ColumnInfo c, int format) {
        PgType type = PgType.of(c);
        return new PgField(c.label(), type, typmod(type, c), format);
    }

    /**
     * The type modifier pgjdbc derived the column's precision and scale from, written back: clients read
     * lengths, numeric precision and fractional seconds out of it.
     */
    static int typmod(PgType type, ColumnInfo c) {
        return switch (type) {
            case VARCHAR, BPCHAR -> c.precision() > 0 && c.precision() <= 10_485_760 ? c.precision() + 4 : -1;
            case NUMERIC ->
                c.precision() > 0 && c.precision() <= 1000 && c.scale() >= 0
                        ? ((c.precision() << 16) | c.scale()) + 4
                        : -1;
            case TIME, TIMETZ, TIMESTAMP, TIMESTAMPTZ -> c.scale() >= 0 && c.scale() < 6 ? c.scale() : -1;
            default -> -1;
        };
    }
}
