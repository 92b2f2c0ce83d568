package org.raidb.driver;

import java.sql.SQLException;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import java.util.Objects;
import java.util.StringTokenizer;
import org.raidb.driver.protocol.SqlStates;

/**
 * What {@code getObject} returns for an {@code interval} column: the driver cannot depend on pgjdbc
 * to return its {@code PGInterval}, so this class has PGInterval's getters and the same
 * {@link #getValue()} and {@link #toString()} text ({@code 1 years 2 mons 3 days 4 hours 5 mins 6.5
 * secs}). {@code getString} still gives the server's own text. Immutable.
 */
public final class RaidbInterval {
    private static final int MICROS_IN_SECOND = 1_000_000;

    private final int years;
    private final int months;
    private final int days;
    private final int hours;
    private final int minutes;
    private final int wholeSeconds;
    private final int microSeconds;

    public RaidbInterval(int years, int months, int days, int hours, int minutes, double seconds) {
        this.years = years;
        this.months = months;
        this.days = days;
        this.hours = hours;
        this.minutes = minutes;
        this.wholeSeconds = (int) seconds;
        this.microSeconds = (int) Math.round((seconds - wholeSeconds) * MICROS_IN_SECOND);
    }

    /**
     * Reads an interval in any of the server's output styles: {@code postgres} (the default, {@code 1
     * year 2 mons 3 days 04:05:06}), {@code postgres_verbose} ({@code @ 1 year 2 mons ago}) and {@code
     * iso_8601} ({@code P1Y2M3DT4H5M6S}), as PGInterval does.
     */
    public static RaidbInterval parse(String value) throws SQLException {
        Objects.requireNonNull(value, "value");
        try {
            return value.startsWith("P") ? parseIso8601(value) : parsePostgres(value);
        } catch (RuntimeException e) {
            SQLException sql =
                    DriverErrors.of("Conversion of interval failed: " + value, SqlStates.NUMERIC_VALUE_OUT_OF_RANGE);
            sql.initCause(e);
            throw sql;
        }
    }

    private static RaidbInterval parsePostgres(String text) {
        boolean verbose = text.startsWith("@");
        if (verbose && text.length() == 3 && text.charAt(2) == '0') {
            return new RaidbInterval(0, 0, 0, 0, 0, 0);
        }
        int y = 0;
        int mo = 0;
        int d = 0;
        int h = 0;
        int mi = 0;
        double s = 0;
        String lower = text.replace('+', ' ').replace('@', ' ').toLowerCase(Locale.ROOT);
        StringTokenizer st = new StringTokenizer(lower);
        String number = null;
        for (int i = 1; st.hasMoreTokens(); i++) {
            String token = st.nextToken();
            if ((i & 1) == 1) {
                int colon = token.indexOf(':');
                if (colon < 0) {
                    number = token;
                    continue;
                }
                int sign = token.charAt(0) == '-' ? 1 : 0; // hh:mm:ss, negative as a whole
                h = Integer.parseInt(token.substring(sign, colon));
                mi = Integer.parseInt(token.substring(colon + 1, colon + 3));
                int second = token.indexOf(':', colon + 1);
                s = second < 0 ? 0 : Double.parseDouble(token.substring(second + 1));
                if (sign == 1) {
                    h = -h;
                    mi = -mi;
                    s = -s;
                }
                number = null;
            } else if (number != null) {
                if (token.startsWith("year")) {
                    y = Integer.parseInt(number);
                } else if (token.startsWith("mon")) {
                    mo = Integer.parseInt(number);
                } else if (token.startsWith("day")) {
                    d = Integer.parseInt(number);
                } else if (token.startsWith("hour")) {
                    h = Integer.parseInt(number);
                } else if (token.startsWith("min")) {
                    mi = Integer.parseInt(number);
                } else if (token.startsWith("sec")) {
                    s = Double.parseDouble(number);
                }
            }
        }
        if (verbose && lower.endsWith("ago")) {
            return new RaidbInterval(-y, -mo, -d, -h, -mi, -s);
        }
        return new RaidbInterval(y, mo, d, h, mi, s);
    }

    private static RaidbInterval parseIso8601(String text) {
        int t = text.indexOf('T');
        String date = t > 0 ? text.substring(1, t) : text.substring(1);
        String time = t > 0 ? text.substring(t + 1) : "";
        int[] ymd = new int[3];
        double[] hms = new double[3];
        readIso(date, "YMD", ymd, null);
        readIso(time, "HMS", null, hms);
        return new RaidbInterval(ymd[0], ymd[1], ymd[2], (int) hms[0], (int) hms[1], hms[2]);
    }

    /** Reads {@code <number><unit>} pairs, each unit one of {@code units}. */
    private static void readIso(String part, String units, int[] ints, double[] doubles) {
        int start = 0;
        for (int i = 0; i < part.length(); i++) {
            int unit = units.indexOf(part.charAt(i));
            if (unit >= 0) {
                String number = part.substring(start, i);
                if (ints != null) {
                    ints[unit] = Integer.parseInt(number);
                } else {
                    doubles[unit] = Double.parseDouble(number);
                }
                start = i + 1;
            }
        }
    }

    public int getYears() {
        return years;
    }

    public int getMonths() {
        return months;
    }

    public int getDays() {
        return days;
    }

    public int getHours() {
        return hours;
    }

    public int getMinutes() {
        return minutes;
    }

    public double getSeconds() {
        return wholeSeconds + (double) microSeconds / MICROS_IN_SECOND;
    }

    public int getWholeSeconds() {
        return wholeSeconds;
    }

    public int getMicroSeconds() {
        return microSeconds;
    }

    /** "interval", as PGInterval.getType(). */
    public String getType() {
        return "interval";
    }

    /** PGInterval's text: {@code 1 years 2 mons 3 days 4 hours 5 mins 6.5 secs}. */
    public String getValue() {
        DecimalFormat seconds = new DecimalFormat("0.0#####", DecimalFormatSymbols.getInstance(Locale.US));
        return String.format(
                Locale.ROOT,
                "%d years %d mons %d days %d hours %d mins %s secs",
                years,
                months,
                days,
                hours,
                minutes,
                seconds.format(getSeconds()));
    }

    @Override
    public String toString() {
        return getValue();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RaidbInterval i
                && i.years == years
                && i.months == months
                && i.days == days
                && i.hours == hours
                && i.minutes == minutes
                && i.wholeSeconds == wholeSeconds
                && i.microSeconds == microSeconds;
    }

    @Override
    public int hashCode() {
        return Objects.hash(years, months, days, hours, minutes, wholeSeconds, microSeconds);
    }
}
