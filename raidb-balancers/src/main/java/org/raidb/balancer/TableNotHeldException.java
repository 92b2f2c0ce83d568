package org.raidb.balancer;

import java.util.List;

/**
 * A request uses a table that no enabled backend holds: for the virtual database the table does not
 * exist right now (the controller answers SQLState 42P01). The message says whether copies exist on
 * disabled backends, or were disabled on enabled ones, and what would bring the table back.
 */
public class TableNotHeldException extends NoBackendAvailableException {
    private final String table;
    private final List<String> disabledBackendsHolding;
    private final List<String> backendsWithDisabledCopy;

    /**
     * @param disabledBackendsHolding disabled backends that hold the table
     * @param backendsWithDisabledCopy enabled backends whose copy of the table was disabled
     */
    public TableNotHeldException(
            String table, List<String> disabledBackendsHolding, List<String> backendsWithDisabledCopy) {
        super(message(table, disabledBackendsHolding, backendsWithDisabledCopy));
        this.table = table;
        this.disabledBackendsHolding = List.copyOf(disabledBackendsHolding);
        this.backendsWithDisabledCopy = List.copyOf(backendsWithDisabledCopy);
    }

    public String table() {
        return table;
    }

    public List<String> disabledBackendsHolding() {
        return disabledBackendsHolding;
    }

    public List<String> backendsWithDisabledCopy() {
        return backendsWithDisabledCopy;
    }

    private static String message(String table, List<String> disabledHolders, List<String> disabledCopies) {
        StringBuilder m = new StringBuilder("no enabled backend holds table ").append(table);
        if (disabledHolders.isEmpty() && disabledCopies.isEmpty()) {
            return m.append(": check the name, or create the table first").toString();
        }
        if (!disabledHolders.isEmpty()) {
            m.append("; it is on disabled backend")
                    .append(disabledHolders.size() > 1 ? "s " : " ")
                    .append(String.join(", ", disabledHolders))
                    .append(": enable ")
                    .append(disabledHolders.size() > 1 ? "one of them" : "it");
        }
        if (!disabledCopies.isEmpty()) {
            m.append("; its copy on ")
                    .append(String.join(", ", disabledCopies))
                    .append(" was disabled after a write failed there: restore ")
                    .append(disabledCopies.size() > 1 ? "one of these backends" : "that backend")
                    .append(" from a checkpoint");
        }
        return m.toString();
    }
}
