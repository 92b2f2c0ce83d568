package org.raidb.controller.analysis;

import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * {@code SELECT set_config('search_path', ?, false)}: PostgreSQL's function form of {@code SET},
 * which Flyway and connection pools send. With {@code is_local} false it changes the session's
 * setting and nothing else, so it is a session setting (run on every backend, replayed on the
 * connections the session borrows, ordered against no write), not a call that may write any table.
 * Only that exact form is recognised: a call with {@code is_local} true or not literal, or beside
 * anything else, stays a call of a function that may write.
 */
final class SetConfigCall {
    private SetConfigCall() {}

    static boolean isSessionSetting(Select select) {
        if (!(select instanceof PlainSelect plain)
                || plain.getFromItem() != null
                || plain.getJoins() != null
                || plain.getWhere() != null
                || plain.getSelectItems() == null
                || plain.getSelectItems().isEmpty()) {
            return false;
        }
        for (SelectItem<?> item : plain.getSelectItems()) {
            if (!(item.getExpression() instanceof Function f) || !isSessionSetConfig(f)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSessionSetConfig(Function f) {
        String name = f.getName() == null ? "" : f.getName().toLowerCase(Locale.ROOT);
        if (!name.equals("set_config") && !name.equals("pg_catalog.set_config")) {
            return false;
        }
        List<?> args = f.getParameters();
        return args != null
                && args.size() == 3
                && isValue(args.get(0))
                && isValue(args.get(1))
                && String.valueOf(args.get(2)).equalsIgnoreCase("false");
    }

    private static boolean isValue(Object e) {
        return e instanceof StringValue || e instanceof JdbcParameter;
    }
}
