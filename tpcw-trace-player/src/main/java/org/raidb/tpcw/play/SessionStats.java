package org.raidb.tpcw.play;

import java.util.Map;
import java.util.TreeMap;

/** What one replaying thread measured; merged into a {@link PlayResult} at the end, so threads never share it. */
final class SessionStats {

    final Map<String, Latencies> byInteraction = new TreeMap<>();
    final Map<String, Latencies> byKind = new TreeMap<>();
    final Map<String, Long> errorsBySqlState = new TreeMap<>();
    final Map<String, Long> retriesByInteraction = new TreeMap<>();
    long statements;
    long retriedStatements;
    long skipped;
    long transactions;
    long rolledBack;

    void statement(String kind, long micros) {
        byKind.computeIfAbsent(kind, k -> new Latencies()).add(micros);
        statements++;
    }

    void interaction(String name, long micros) {
        byInteraction.computeIfAbsent(name, k -> new Latencies()).add(micros);
    }

    void error(String sqlState) {
        errorsBySqlState.merge(sqlState == null ? "none" : sqlState, 1L, Long::sum);
    }

    /**
     * A transaction of {@code interaction} is run again; the {@code resent} statements its aborted
     * attempt sent leave the statement count (each trace statement counts once) for the re-sent count.
     */
    void retry(String interaction, int resent) {
        retriesByInteraction.merge(interaction == null ? "none" : interaction, 1L, Long::sum);
        statements -= resent;
        retriedStatements += resent;
    }

    void mergeInto(SessionStats total) {
        byInteraction.forEach((k, v) ->
                total.byInteraction.computeIfAbsent(k, x -> new Latencies()).addAll(v));
        byKind.forEach(
                (k, v) -> total.byKind.computeIfAbsent(k, x -> new Latencies()).addAll(v));
        errorsBySqlState.forEach((k, v) -> total.errorsBySqlState.merge(k, v, Long::sum));
        retriesByInteraction.forEach((k, v) -> total.retriesByInteraction.merge(k, v, Long::sum));
        total.statements += statements;
        total.retriedStatements += retriedStatements;
        total.skipped += skipped;
        total.transactions += transactions;
        total.rolledBack += rolledBack;
    }
}
