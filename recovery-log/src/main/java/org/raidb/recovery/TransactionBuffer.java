package org.raidb.recovery;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The effective writes of one transaction seen so far by a replay. Savepoints are resolved here,
 * with SQL's rules: ROLLBACK TO x drops the writes made since x and the savepoints set after x (x
 * stays); RELEASE x forgets x and the savepoints set after it. So the replayed transaction needs no
 * savepoint statements at all.
 */
final class TransactionBuffer {

    final long transactionId;
    final String login;
    final List<LogEntry> writes = new ArrayList<>();
    /** Savepoint name to the number of writes made before it, in the order they were set. */
    private final LinkedHashMap<String, Integer> savepoints = new LinkedHashMap<>();

    TransactionBuffer(long transactionId, String login) {
        this.transactionId = transactionId;
        this.login = login;
    }

    void apply(LogEntry e) {
        switch (e.kind()) {
            case WRITE, DDL -> writes.add(e);
            case SAVEPOINT -> {
                // Setting a name again moves it, as the databases do.
                savepoints.remove(e.savepointName());
                savepoints.put(e.savepointName(), writes.size());
            }
            case ROLLBACK_TO_SAVEPOINT -> {
                Integer mark = savepoints.get(e.savepointName());
                if (mark != null) {
                    writes.subList(mark, writes.size()).clear();
                    forgetAfter(e.savepointName(), false);
                }
            }
            case RELEASE_SAVEPOINT -> forgetAfter(e.savepointName(), true);
            default -> throw new IllegalArgumentException(e.kind() + " is not a statement inside a transaction");
        }
    }

    private void forgetAfter(String name, boolean includingName) {
        boolean found = false;
        for (Iterator<Map.Entry<String, Integer>> it = savepoints.entrySet().iterator(); it.hasNext(); ) {
            String current = it.next().getKey();
            if (current.equals(name)) {
                found = true;
                if (includingName) {
                    it.remove();
                }
            } else if (found) {
                it.remove();
            }
        }
    }
}
