package org.raidb.driver;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.raidb.driver.protocol.SqlStates;

/**
 * The JDBC escape functions ({@code {fn ucase(x)}}...) in the PostgreSQL form pgjdbc gives them (its
 * {@code EscapedFunctions2}), so that both drivers send the same SQL. A function not listed here is
 * called by its own name with its arguments.
 */
final class EscapedFunctions {
    @FunctionalInterface
    private interface Translation {
        void append(StringBuilder out, List<CharSequence> args) throws SQLException;
    }

    private static final Map<String, Translation> FUNCTIONS = new HashMap<>();

    static {
        // numeric
        single("ceiling", "ceil(");
        single("log", "ln(");
        single("log10", "log(");
        two("power", "pow(");
        two("truncate", "trunc(");
        // string
        single("char", "chr(");
        FUNCTIONS.put("concat", (out, args) -> call(out, "(", "||", ")", args));
        FUNCTIONS.put("insert", (out, args) -> {
            arity("insert", args, 4, "four and only four argument");
            out.append("overlay(")
                    .append(args.get(0))
                    .append(" placing ")
                    .append(args.get(3))
                    .append(" from ")
                    .append(args.get(1))
                    .append(" for ")
                    .append(args.get(2))
                    .append(')');
        });
        single("lcase", "lower(");
        FUNCTIONS.put("left", (out, args) -> {
            arity("left", args, 2, "two and only two arguments");
            call(out, "substring(", " for ", ")", args);
        });
        single("length", "length(trim(trailing from ", "))");
        FUNCTIONS.put("locate", EscapedFunctions::locate);
        single("ltrim", "trim(leading from ");
        FUNCTIONS.put("right", (out, args) -> {
            arity("right", args, 2, "two and only two arguments");
            out.append("substring(")
                    .append(args.get(0))
                    .append(" from (length(")
                    .append(args.get(0))
                    .append(")+1-")
                    .append(args.get(1))
                    .append("))");
        });
        single("rtrim", "trim(trailing from ");
        single("space", "repeat(' ',");
        FUNCTIONS.put("substring", (out, args) -> {
            if (args.size() != 2 && args.size() != 3) {
                throw JdbcEscapes.syntaxError("substring function takes two or three arguments.");
            }
            call(out, "substr(", ",", ")", args);
        });
        single("ucase", "upper(");
        // date and time
        none("curdate", "current_date");
        none("curtime", "current_time");
        single("dayname", "to_char(", ",'Day')");
        single("dayofmonth", "extract(day from ");
        single("dayofweek", "extract(dow from ", ")+1");
        single("dayofyear", "extract(doy from ");
        single("hour", "extract(hour from ");
        single("minute", "extract(minute from ");
        single("month", "extract(month from ");
        single("monthname", "to_char(", ",'Month')");
        single("quarter", "extract(quarter from ");
        single("second", "extract(second from ");
        single("week", "extract(week from ");
        single("year", "extract(year from ");
        FUNCTIONS.put("timestampadd", EscapedFunctions::timestampAdd);
        FUNCTIONS.put("timestampdiff", EscapedFunctions::timestampDiff);
        // system
        none("database", "current_database()");
        two("ifnull", "coalesce(");
        none("user", "user");
    }

    private EscapedFunctions() {}

    /** Appends the translation of {@code {fn name(args)}}. */
    static void append(StringBuilder out, String name, List<CharSequence> args) throws SQLException {
        Translation t = FUNCTIONS.get(name.toLowerCase(Locale.US));
        if (t == null) {
            out.append(name);
            call(out, "(", ",", ")", args);
        } else {
            t.append(out, args);
        }
    }

    private static void none(String name, String sql) {
        FUNCTIONS.put(name, (out, args) -> {
            if (!args.isEmpty()) {
                throw JdbcEscapes.syntaxError(name + " function doesn't take any argument.");
            }
            out.append(sql);
        });
    }

    private static void single(String name, String begin) {
        single(name, begin, ")");
    }

    /** A function of one argument, written between {@code begin} and {@code end}. */
    private static void single(String name, String begin, String end) {
        FUNCTIONS.put(name, (out, args) -> {
            arity(name, args, 1, "one and only one argument");
            out.append(begin).append(args.get(0)).append(end);
        });
    }

    private static void two(String name, String begin) {
        FUNCTIONS.put(name, (out, args) -> {
            arity(name, args, 2, "two and only two arguments");
            call(out, begin, ",", ")", args);
        });
    }

    private static void arity(String name, List<CharSequence> args, int n, String says) throws SQLException {
        if (args.size() != n) {
            throw JdbcEscapes.syntaxError(name + " function takes " + says + ".");
        }
    }

    private static void call(StringBuilder out, String begin, String separator, String end, List<CharSequence> args) {
        out.append(begin);
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) {
                out.append(separator);
            }
            out.append(args.get(i));
        }
        out.append(end);
    }

    private static void locate(StringBuilder out, List<CharSequence> args) throws SQLException {
        if (args.size() == 2) {
            call(out, "position(", " in ", ")", args);
        } else if (args.size() == 3) {
            String position =
                    "position(" + args.get(0) + " in substring(" + args.get(1) + " from " + args.get(2) + "))";
            out.append('(')
                    .append(args.get(2))
                    .append("*sign(")
                    .append(position)
                    .append(")+")
                    .append(position)
                    .append(')');
        } else {
            throw JdbcEscapes.syntaxError("locate function takes two or three arguments.");
        }
    }

    private static void timestampAdd(StringBuilder out, List<CharSequence> args) throws SQLException {
        arity("timestampadd", args, 3, "three and only three arguments");
        String unit = args.get(0).toString();
        String value = args.get(1).toString();
        out.append('(');
        String part = intervalUnit(unit);
        if (part != null) {
            out.append("CAST(").append(value).append("||' ").append(part).append("' as interval)");
        } else if (sameUnit(unit, "SQL_TSI_QUARTER")) {
            out.append("CAST((").append(value).append("::int * 3) || ' month' as interval)");
        } else {
            throw notImplemented(unit, isTsi(unit) ? SqlStates.FEATURE_NOT_SUPPORTED : SqlStates.SYNTAX_ERROR);
        }
        out.append('+').append(args.get(2)).append(')');
    }

    private static void timestampDiff(StringBuilder out, List<CharSequence> args) throws SQLException {
        arity("timestampdiff", args, 3, "three and only three arguments");
        String unit = args.get(0).toString();
        String part = null;
        for (String p : new String[] {"day", "second", "hour", "minute"}) {
            if (sameUnit(unit, "SQL_TSI_" + p.toUpperCase(Locale.ROOT))) {
                part = p;
            }
        }
        if (part == null) {
            throw notImplemented(unit, SqlStates.SYNTAX_ERROR);
        }
        out.append("extract( ")
                .append(part)
                .append(" from (")
                .append(args.get(2))
                .append('-')
                .append(args.get(1))
                .append("))");
    }

    /** The PostgreSQL interval unit of an SQL_TSI_ constant that maps to one directly. */
    private static String intervalUnit(String unit) {
        for (String p : new String[] {"day", "second", "hour", "minute", "month", "week", "year"}) {
            if (sameUnit(unit, "SQL_TSI_" + p.toUpperCase(Locale.ROOT))) {
                return p;
            }
        }
        return null;
    }

    private static boolean isTsi(String unit) {
        return unit.regionMatches(true, 0, "SQL_TSI_", 0, 8);
    }

    private static boolean sameUnit(String unit, String constant) {
        return unit.length() == constant.length()
                && isTsi(unit)
                && unit.regionMatches(true, 8, constant, 8, constant.length() - 8);
    }

    private static SQLException notImplemented(String unit, String state) {
        return DriverErrors.of("Interval " + unit + " not yet implemented", state);
    }
}
