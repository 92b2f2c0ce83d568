package org.raidb.controller.determinism;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.UUID;

/**
 * Writes the literal that stands for a call's value, in the syntax and with the type a dialect
 * gives that call, so that an expression around it ({@code now() + interval '1 day'}, {@code
 * RAND() * 10}) keeps its meaning.
 */
final class LiteralWriter {
    /** PostgreSQL's timeofday() format, C locale: {@code Sun Nov 22 03:40:00.123456 2026 UTC}. */
    private static final DateTimeFormatter TIME_OF_DAY =
            DateTimeFormatter.ofPattern("EEE MMM dd HH:mm:ss.SSSSSS yyyy ", Locale.ROOT);

    private static final int MICROSECONDS = 6;

    private final SqlDialect dialect;

    LiteralWriter(SqlDialect dialect) {
        this.dialect = dialect;
    }

    /**
     * A time value. {@code precision} is the fractional-seconds digits written in the call, or
     * {@link CallScanner#NO_PRECISION} for the dialect's default (PostgreSQL microseconds, MariaDB
     * whole seconds).
     */
    void time(StringBuilder out, CallValue value, Instant instant, ZoneId zone, int precision) {
        int digits = precision == CallScanner.NO_PRECISION ? defaultDigits() : precision;
        Instant t = atPrecision(instant, digits);
        LocalDateTime local = LocalDateTime.ofInstant(t, zone);
        ZoneOffset offset = zone.getRules().getOffset(t);
        boolean zoned = dialect != SqlDialect.MARIADB; // MariaDB has no type with a zone
        switch (value) {
            case TIMESTAMP_WITH_ZONE ->
                temporal(
                        out,
                        zoned ? zonedType("TIMESTAMPTZ", "TIMESTAMP") : "TIMESTAMP",
                        local,
                        true,
                        digits,
                        zoned ? offset : null);
            case LOCAL_TIMESTAMP -> temporal(out, "TIMESTAMP", local, true, digits, null);
            case DATE -> temporal(out, "DATE", local, true, -1, null);
            case TIME_WITH_ZONE ->
                temporal(
                        out, zoned ? zonedType("TIMETZ", "TIME") : "TIME", local, false, digits, zoned ? offset : null);
            case LOCAL_TIME -> temporal(out, "TIME", local, false, digits, null);
            case TIME_OF_DAY_TEXT -> {
                out.append(dialect == SqlDialect.POSTGRESQL ? "TEXT '" : "'");
                TIME_OF_DAY.formatTo(local, out);
                out.append(zoneAbbreviation(zone, t)).append('\'');
            }
            case EPOCH_SECONDS -> out.append(instant.getEpochSecond());
            default -> throw new IllegalArgumentException("not a time value: " + value);
        }
    }

    /**
     * A double in [0, 1). Java's shortest round-trip digits read back to the same double in both
     * databases; the exponent keeps MariaDB from reading the literal as a DECIMAL.
     */
    void random(StringBuilder out, double value) {
        String digits = Double.toString(value);
        if (dialect == SqlDialect.MARIADB) {
            out.append(digits);
            if (digits.indexOf('E') < 0) {
                out.append("e0");
            }
        } else {
            out.append("CAST(").append(digits).append(" AS DOUBLE PRECISION)");
        }
    }

    void uuid(StringBuilder out, UUID value) {
        if (dialect == SqlDialect.POSTGRESQL) {
            out.append("CAST('").append(value).append("' AS UUID)");
        } else {
            out.append('\'').append(value).append('\''); // MariaDB's UUID() returns a string
        }
    }

    /**
     * How a literal this writer wrote is read from a parameter instead: the marker to put in its
     * place and the value to bind, as a string the marker casts to the literal's type.
     */
    Parameter asParameter(String literal) {
        if (literal.startsWith("CAST(")) { // CAST('…' AS UUID), CAST(0.5 AS DOUBLE PRECISION)
            int as = literal.lastIndexOf(" AS ");
            return new Parameter(
                    "CAST(?" + literal.substring(as, literal.length()), unquoted(literal.substring(5, as)));
        }
        int quote = literal.indexOf('\'');
        if (quote < 0) { // MariaDB's RAND(): 0.5e0
            return new Parameter(
                    dialect == SqlDialect.MARIADB ? "CAST(? AS DOUBLE)" : "CAST(? AS DOUBLE PRECISION)", literal);
        }
        String type = literal.substring(0, quote).trim();
        String value = unquoted(literal.substring(quote));
        if (type.isEmpty()) {
            return new Parameter("?", value); // MariaDB's UUID(), a string
        }
        if (dialect == SqlDialect.MARIADB && !type.equals("DATE")) {
            // MariaDB casts to DATETIME, not TIMESTAMP, and to whole seconds unless told the digits.
            int dot = value.lastIndexOf('.');
            int digits = dot < 0 ? 0 : value.length() - dot - 1;
            type = (type.equals("TIMESTAMP") ? "DATETIME" : type) + "(" + digits + ")";
        }
        return new Parameter("CAST(? AS " + type + ")", value);
    }

    private static String unquoted(String s) {
        return s.startsWith("'") ? s.substring(1, s.length() - 1).replace("''", "'") : s;
    }

    /** A literal's value as a parameter: {@code marker} holds one {@code ?}, {@code value} is bound to it. */
    record Parameter(String marker, String value) {}

    private int defaultDigits() {
        return dialect == SqlDialect.MARIADB ? 0 : MICROSECONDS;
    }

    /**
     * The instant as the database would hold it: microseconds at most, then PostgreSQL rounds to the
     * requested digits (current_timestamp(0) at 03:40:00.6 is 03:40:01) while MariaDB truncates
     * (unless its sql_mode has TIME_ROUND_FRACTIONAL, which this does not follow).
     */
    private Instant atPrecision(Instant t, int digits) {
        Instant micros = t.truncatedTo(ChronoUnit.MICROS);
        if (digits >= MICROSECONDS) {
            return micros;
        }
        long unit = pow10(9 - digits);
        @SuppressWarnings(
                "JavaInstantGetSecondsGetNano") // rounding happens within the second: its fraction is the point
        long nanos = micros.getNano();
        long kept = nanos - nanos % unit;
        if (dialect == SqlDialect.POSTGRESQL && nanos - kept >= unit / 2) {
            kept += unit;
        }
        return micros.plusNanos(kept - nanos);
    }

    private static long pow10(int exponent) {
        long p = 1;
        for (int i = 0; i < exponent; i++) {
            p *= 10;
        }
        return p;
    }

    private String zonedType(String postgresName, String ansiBase) {
        return dialect == SqlDialect.POSTGRESQL ? postgresName : ansiBase + " WITH TIME ZONE";
    }

    /**
     * {@code TYPE 'yyyy-mm-dd hh:mm:ss.ffffff+zz'}, parts left out as asked: no date when {@code
     * withDate} is false, no time of day when {@code digits} is negative, no zone when {@code offset}
     * is null.
     */
    private void temporal(
            StringBuilder out, String type, LocalDateTime t, boolean withDate, int digits, ZoneOffset offset) {
        out.append(type).append(" '");
        if (withDate) {
            pad(out, t.getYear(), 4).append('-');
            pad(out, t.getMonthValue(), 2).append('-');
            pad(out, t.getDayOfMonth(), 2);
            if (digits >= 0) {
                out.append(' ');
            }
        }
        if (digits >= 0) {
            pad(out, t.getHour(), 2).append(':');
            pad(out, t.getMinute(), 2).append(':');
            pad(out, t.getSecond(), 2);
            if (digits > 0) {
                out.append('.');
                @SuppressWarnings("JavaLocalDateTimeGetNano") // the seconds are written above: this is their fraction
                int fraction = t.getNano();
                pad(out, fraction / (int) pow10(9 - digits), digits);
            }
        }
        if (offset != null) {
            appendOffset(out, offset);
        }
        out.append('\'');
    }

    /** PostgreSQL prints +00 or +05:30; the ANSI form always has minutes. */
    private void appendOffset(StringBuilder out, ZoneOffset offset) {
        int seconds = offset.getTotalSeconds();
        out.append(seconds < 0 ? '-' : '+');
        int abs = Math.abs(seconds);
        pad(out, abs / 3600, 2);
        if (abs % 3600 != 0 || dialect != SqlDialect.POSTGRESQL) {
            out.append(':');
            pad(out, abs % 3600 / 60, 2);
        }
        if (abs % 60 != 0) {
            out.append(':');
            pad(out, abs % 60, 2);
        }
    }

    private static StringBuilder pad(StringBuilder out, int value, int width) {
        for (long limit = pow10(width - 1); limit > 1 && value < limit; limit /= 10) {
            out.append('0');
        }
        return out.append(value);
    }

    private static String zoneAbbreviation(ZoneId zone, Instant t) {
        ZoneId normalized = zone.normalized();
        if (normalized.equals(ZoneOffset.UTC)) {
            return "UTC";
        }
        return DateTimeFormatter.ofPattern("zzz", Locale.ROOT).withZone(zone).format(t);
    }
}
