package org.raidb.driver.protocol;

import java.sql.Types;

/** A SQL NULL on the wire, remembering the java.sql.Types the client declared for it. */
public record SqlNull(int sqlType) {
    private static final SqlNull UNTYPED = new SqlNull(Types.NULL);

    public static SqlNull of(int sqlType) {
        return sqlType == Types.NULL ? UNTYPED : new SqlNull(sqlType);
    }
}
