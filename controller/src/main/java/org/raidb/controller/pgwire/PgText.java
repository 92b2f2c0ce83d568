package org.raidb.controller.pgwire;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HexFormat;
import java.util.List;
import org.raidb.driver.protocol.SqlArray;

/**
 * Values as PostgreSQL writes them in the text format (DateStyle ISO, timestamptz in the session's TimeZone), so that psql, psycopg and pgjdbc read what they would read from PostgreSQL itself.
 */
final class PgText {
    private static final HexFormat HEX = HexFormat.of();

    private PgText() {}

    static byte[] encode(Object v) {
        return encode(v, ZoneOffset.UTC);
    }

    /** A value's text; a timestamptz in {@code zone}, the session's TimeZone, as PostgreSQL writes it. */
    static byte[] encode(Object v, ZoneId zone) {
        return format(v, zone).getBytes(StandardCharsets.UTF_8);
    }

    static String format(Object v) {
        return format(v, ZoneOffset.UTC);
    }

    static String format(Object v, ZoneId zone) {
        if (v instanceof String s) {
            return s;
        } else if (v instanceof Boolean b) {
            return b ? "t" : "f";
        } else if (v instanceof Double d) {
            return floating(d, 15);
        } else if (v instanceof Float f) {
            return floating(Double.parseDouble(Float.toString(f)), 6);
        } else if (v instanceof BigDecimal d) {
            return d.toPlainString();
        } else if (v instanceof byte[] b) {
            return "\\x" + HEX.formatHex(b);
        } else if (v instanceof LocalDateTime t) {
            return infinity(t, LocalDateTime.MAX, LocalDateTime.MIN) != null
                    ? infinity(t, LocalDateTime.MAX, LocalDateTime.MIN)
                    : timestamp(t, "");
        } else if (v instanceof OffsetDateTime t) {
            if (infinity(t, OffsetDateTime.MAX, OffsetDateTime.MIN) != null) {
                return infinity(t, OffsetDateTime.MAX, OffsetDateTime.MIN);
            }
            ZonedDateTime local = t.atZoneSameInstant(zone);
            return timestamp(local.toLocalDateTime(), offset(local.getOffset()));
        } else if (v instanceof LocalTime t) {
            return time(t);
        } else if (v instanceof OffsetTime t) {
            return time(t.toLocalTime()) + offset(t.getOffset());
        } else if (v instanceof LocalDate d) {
            return infinity(d, LocalDate.MAX, LocalDate.MIN) != null
                    ? infinity(d, LocalDate.MAX, LocalDate.MIN)
                    : date(d, "");
        } else if (v instanceof SqlArray a) {
            return array(a.elements(), zone);
        }
        return String.valueOf(v); // integers, UUID, TypedText (json, interval, …: the backend's own text)
    }

    /** pgjdbc reads infinity and -infinity as the largest and smallest value of the java.time type. */
    private static String infinity(Object v, Object max, Object min) {
        return v.equals(max) ? "infinity" : v.equals(min) ? "-infinity" : null;
    }

    private static String timestamp(LocalDateTime t, String offset) {
        return date(t.toLocalDate(), " " + time(t.toLocalTime()) + offset);
    }

    /** ISO date; a year before 1 as PostgreSQL writes it, counted backwards with BC after the rest. */
    private static String date(LocalDate d, String rest) {
        if (d.getYear() > 0) {
            return d + rest;
        }
        return String.format("%04d-%02d-%02d", 1 - d.getYear(), d.getMonthValue(), d.getDayOfMonth()) + rest + " BC";
    }

    /** hh:mm:ss with the fraction's significant digits, as PostgreSQL prints time and timestamp. */
    private static String time(LocalTime t) {
        StringBuilder sb = new StringBuilder(15);
        two(sb, t.getHour()).append(':');
        two(sb, t.getMinute()).append(':');
        two(sb, t.getSecond());
        int micros = t.getNano() / 1000;
        if (micros != 0) {
            String f = String.format("%06d", micros);
            int end = f.length();
            while (f.charAt(end - 1) == '0') {
                end--;
            }
            sb.append('.').append(f, 0, end);
        }
        return sb.toString();
    }

    private static StringBuilder two(StringBuilder sb, int n) {
        return sb.append(n < 10 ? "0" : "").append(n);
    }

    private static String offset(ZoneOffset o) {
        int s = o.getTotalSeconds();
        StringBuilder sb = new StringBuilder(s < 0 ? "-" : "+");
        s = Math.abs(s);
        two(sb, s / 3600);
        if (s % 3600 != 0) {
            two(sb.append(':'), s % 3600 / 60);
        }
        if (s % 60 != 0) {
            two(sb.append(':'), s % 60);
        }
        return sb.toString();
    }

    /**
     * The shortest text that reads back as the same value, in fixed notation unless the exponent is below -4 or
     * reaches {@code maxFixedExponent} (15 for float8, 6 for float4), as PostgreSQL 12 and later print it.
     */
    static String floating(double d, int maxFixedExponent) {
        if (Double.isNaN(d)) {
            return "NaN";
        } else if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        } else if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        BigDecimal exact = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        int exponent = exact.precision() - exact.scale() - 1;
        if (exponent >= -4 && exponent < maxFixedExponent) {
            return exact.toPlainString();
        }
        String digits = exact.unscaledValue().abs().toString();
        StringBuilder sb = new StringBuilder(d < 0 ? "-" : "");
        sb.append(digits.charAt(0));
        if (digits.length() > 1) {
            sb.append('.').append(digits, 1, digits.length());
        }
        sb.append('e').append(exponent < 0 ? '-' : '+');
        two(sb, Math.abs(exponent));
        return sb.toString();
    }

    /** An array literal: {@code {1,2,NULL}}, elements quoted when they must be. */
    private static String array(List<Object> elements, ZoneId zone) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            Object e = elements.get(i);
            if (e == null) {
                sb.append("NULL");
            } else if (e instanceof SqlArray nested) {
                sb.append(array(nested.elements(), zone));
            } else {
                sb.append(arrayElement(format(e, zone)));
            }
        }
        return sb.append('}').toString();
    }

    private static String arrayElement(String s) {
        boolean quote = s.isEmpty() || s.equalsIgnoreCase("NULL");
        for (int i = 0; i < s.length() && !quote; i++) {
            char c = s.charAt(i);
            quote = c == ',' || c == '{' || c == '}' || c == '"' || c == '\\' || Character.isWhitespace(c);
        }
        if (!quote) {
            return s;
        }
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
