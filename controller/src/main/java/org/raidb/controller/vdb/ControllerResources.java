package org.raidb.controller.vdb;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.raidb.controller.analysis.ParserThreads;
import org.raidb.controller.transaction.BetweenCommitPhases;

/**
 * What the controller owns and lends to each of its virtual databases: the threads SQL is parsed on
 * (closed with the controller), the hook between the two phases of a commit (none outside tests), and the
 * controller's one meter registry (its backends' pools publish there; {@code /metrics} reads it).
 */
public record ControllerResources(
        ParserThreads parserThreads, BetweenCommitPhases betweenCommitPhases, PrometheusMeterRegistry meters)
        implements AutoCloseable {

    /** With a meter registry of its own. */
    public ControllerResources(ParserThreads parserThreads, BetweenCommitPhases betweenCommitPhases) {
        this(parserThreads, betweenCommitPhases, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    public static ControllerResources standard() {
        return new ControllerResources(new ParserThreads("raidb-sql-parser"), BetweenCommitPhases.NONE);
    }

    @Override
    public void close() {
        parserThreads.close();
        meters.close();
    }
}
