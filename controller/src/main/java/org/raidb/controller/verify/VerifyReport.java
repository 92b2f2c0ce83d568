package org.raidb.controller.verify;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The result of one verify of a virtual database; the JSON field names of the admin API are these component names
 * and the three counts of tables.
 *
 * @param started when it started (ISO-8601, UTC)
 * @param millis how long it took, repairs included
 * @param writesHeldMillis how long new writes were held for every backend's snapshot to be taken at one point
 * @param backends the enabled backends compared
 * @param repair whether differing tables were repaired
 * @param notes what else it met: backends disabled during the verify (left out), tables left unchecked
 */
public record VerifyReport(
        String virtualDatabase,
        String started,
        long millis,
        long writesHeldMillis,
        List<String> backends,
        boolean repair,
        List<TableVerdict> tables,
        List<String> notes) {

    public VerifyReport {
        backends = List.copyOf(backends);
        tables = List.copyOf(tables);
        notes = List.copyOf(notes);
    }

    @JsonProperty
    public int tablesIdentical() {
        return count(TableVerdict.IDENTICAL);
    }

    @JsonProperty
    public int tablesDiffering() {
        return count(TableVerdict.DIFFERING);
    }

    @JsonProperty
    public int tablesSkipped() {
        return count(TableVerdict.SKIPPED);
    }

    private int count(String state) {
        return (int) tables.stream().filter(t -> t.state().equals(state)).count();
    }

    /** Whether every table compared was identical on its holders (repairs do not change this: it is what was found). */
    public boolean identical() {
        return tablesDiffering() == 0;
    }

    /** One line for the log and the operation's message. */
    public String summary() {
        StringBuilder s = new StringBuilder("verify of ")
                .append(virtualDatabase)
                .append(": ")
                .append(tablesIdentical())
                .append(" table(s) identical, ")
                .append(tablesDiffering())
                .append(" differing");
        if (tablesSkipped() > 0) {
            s.append(", ").append(tablesSkipped()).append(" skipped");
        }
        for (TableVerdict t : tables) {
            if (t.differs()) {
                s.append("; ").append(t.table()).append(" differs on ").append(String.join(", ", t.differing()));
                if (!t.repaired().isEmpty()) {
                    s.append(" (repaired from ").append(t.reference()).append(")");
                } else if (repair) {
                    s.append(" (not repaired: ").append(t.note()).append(")");
                }
            }
        }
        s.append(" (")
                .append(backends.size())
                .append(" backend(s), ")
                .append(millis)
                .append(" ms, writes held ")
                .append(writesHeldMillis)
                .append(" ms)");
        for (String n : notes) {
            s.append("; ").append(n);
        }
        return s.toString();
    }
}
