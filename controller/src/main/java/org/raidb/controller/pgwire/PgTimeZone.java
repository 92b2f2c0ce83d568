package org.raidb.controller.pgwire;

import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A session's {@code TimeZone} setting, which PostgreSQL writes timestamptz values in: the one the client's
 * startup packet names (pgjdbc sends its JVM's zone), then whatever {@code SET TIME ZONE} or {@code SET
 * TimeZone} changes it to, back to the startup one at {@code RESET}. The backends get the same statements
 * through the request path, so that their conversions of text without an offset agree with what this front
 * end writes.
 *
 * <p>Known here: IANA zone names (in any case, as PostgreSQL takes them), UTC and GMT, and POSIX offsets
 * ({@code GMT+5}, {@code +05:30}: hours west of Greenwich, as PostgreSQL reads them). {@code SET LOCAL} changes
 * the backends' setting for the transaction only and not the output here.
 */
final class PgTimeZone {
    private static final Pattern SET =
            Pattern.compile("(?is)\\s*SET\\s+(?:SESSION\\s+)?(?:TIME\\s+ZONE|TIMEZONE\\s*(?:TO|=))\\s*(.*?)\\s*;?\\s*");
    private static final Pattern RESET =
            Pattern.compile("(?is)\\s*(?:RESET\\s+(?:TIME\\s+ZONE|TIMEZONE|ALL)|DISCARD\\s+ALL)\\s*;?\\s*");
    private static final Pattern POSIX_OFFSET =
            Pattern.compile("(?i)(?:GMT|UTC|<[^>]*>)?([+-])(\\d{1,2})(?::?(\\d{2}))?(?::?(\\d{2}))?");
    private static final Map<String, String> ZONES_BY_LOWER_CASE = new HashMap<>();

    static {
        for (String id : ZoneId.getAvailableZoneIds()) {
            ZONES_BY_LOWER_CASE.put(id.toLowerCase(Locale.ROOT), id);
        }
    }

    private String name = "UTC";
    private ZoneId zone = ZoneOffset.UTC;
    private String startupName = name;
    private ZoneId startupZone = zone;

    String name() {
        return name;
    }

    ZoneId zone() {
        return zone;
    }

    /** What the session has now is what RESET returns to: called once the startup packet's settings ran. */
    void startupDone() {
        startupName = name;
        startupZone = zone;
    }

    /**
     * The setting a statement gives the TimeZone, checked before the statement runs: a value for {@code SET},
     * the empty string for {@code RESET} (and {@code SET … DEFAULT}); null for a statement that leaves it alone.
     */
    static String settingIn(String sql) throws SQLException {
        if (RESET.matcher(sql).matches()) {
            return "";
        }
        Matcher m = SET.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        String value = m.group(1);
        if (value.equalsIgnoreCase("DEFAULT") || value.equalsIgnoreCase("LOCAL")) {
            return "";
        }
        if (value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
            value = value.substring(1, value.length() - 1).replace("''", "'");
        } else if (value.matches("[+-]?\\d+(\\.\\d+)?")) {
            // SET TIME ZONE -7: hours east of Greenwich (ISO), unlike the POSIX strings
            // (named as PostgreSQL names it: SET TIME ZONE -7 shows <-07>+07).
            int east = (int) Math.round(Double.parseDouble(value) * 3600);
            if (Math.abs(east) > 18 * 3600) {
                throw unknown(value);
            }
            String iso = ZoneOffset.ofTotalSeconds(east).getId().replace(":00", "");
            String posix = ZoneOffset.ofTotalSeconds(-east).getId().replace(":00", "");
            return "<" + (east == 0 ? "+00" : iso) + ">" + (east == 0 ? "+00" : posix);
        } else if (!value.matches("[A-Za-z_/+\\-0-9:<>]+")) {
            throw unknown(value); // INTERVAL '…' HOUR TO MINUTE and the like
        }
        zoneOf(value); // refused here, before any backend changes
        return value;
    }

    /** Applies a setting {@link #settingIn} found, once its statement ran. */
    void apply(String setting) throws SQLException {
        if (setting.isEmpty()) {
            name = startupName;
            zone = startupZone;
        } else {
            zone = zoneOf(setting);
            name = setting;
        }
    }

    static ZoneId zoneOf(String value) throws SQLException {
        String v = value.trim();
        if (v.equalsIgnoreCase("UTC") || v.equalsIgnoreCase("GMT") || v.equalsIgnoreCase("Z")) {
            return ZoneOffset.UTC;
        }
        Matcher posix = POSIX_OFFSET.matcher(v);
        if (posix.matches()) {
            int seconds = Integer.parseInt(posix.group(2)) * 3600
                    + (posix.group(3) == null ? 0 : Integer.parseInt(posix.group(3)) * 60)
                    + (posix.group(4) == null ? 0 : Integer.parseInt(posix.group(4)));
            try {
                return ZoneOffset.ofTotalSeconds(posix.group(1).equals("+") ? -seconds : seconds);
            } catch (DateTimeException e) {
                throw unknown(value);
            }
        }
        String id = ZONES_BY_LOWER_CASE.get(v.toLowerCase(Locale.ROOT));
        if (id == null) {
            throw unknown(value);
        }
        return ZoneId.of(id);
    }

    private static SQLException unknown(String value) {
        return new SQLException(
                "invalid value for parameter \"TimeZone\": \"" + value
                        + "\": RAIDb's PostgreSQL front end takes a zone name (Europe/Paris), UTC, or an offset",
                "22023");
    }
}
