package org.raidb.controller.determinism;

import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.update.Update;

/**
 * Refuses {@code UPDATE … LIMIT n} and {@code DELETE … LIMIT n} without {@code ORDER BY}
 * (MariaDB/MySQL syntax): which n rows they touch follows each backend's physical row order, so
 * replicas would change different rows. Refused rather than serialized, because serializing fixes
 * the order between statements, not the rows one statement picks.
 */
public final class LimitWithoutOrder {

    private LimitWithoutOrder() {}

    /** A message for the client when the statement must be refused; empty when it is safe. */
    public static Optional<String> problem(Statement parsed) {
        if (parsed instanceof Update update && unordered(update.getLimit(), update.getOrderByElements())) {
            return Optional.of(message("UPDATE", "change"));
        }
        if (parsed instanceof Delete delete && unordered(delete.getLimit(), delete.getOrderByElements())) {
            return Optional.of(message("DELETE", "delete"));
        }
        return Optional.empty();
    }

    private static boolean unordered(Limit limit, List<OrderByElement> orderBy) {
        return limit != null && (orderBy == null || orderBy.isEmpty());
    }

    private static String message(String verb, String effect) {
        return verb + " … LIMIT without ORDER BY may " + effect + " different rows on each backend: "
                + "add an ORDER BY on a unique key, or remove the LIMIT";
    }
}
