package org.raidb.tpcw.interactions;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** SQL literals in PostgreSQL syntax, for statements whose values are written in. */
public final class SqlLiteral {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private SqlLiteral() {}

    /** A quoted string, quotes doubled. */
    public static String text(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    public static String timestamp(LocalDateTime value) {
        return "TIMESTAMP '" + TIMESTAMP.format(value) + "'";
    }

    public static String date(LocalDate value) {
        return "DATE '" + value + "'";
    }

    public static String number(BigDecimal value) {
        return value.toPlainString();
    }
}
