package org.raidb.controller.vdb;

import org.raidb.controller.analysis.ParserThreads;
import org.raidb.controller.transaction.BetweenCommitPhases;

/**
 * What the controller owns and lends to each of its virtual databases: the threads SQL is parsed on
 * (closed with the controller), and the hook between the two phases of a commit (none outside tests).
 */
public record ControllerResources(ParserThreads parserThreads, BetweenCommitPhases betweenCommitPhases)
        implements AutoCloseable {

    public static ControllerResources standard() {
        return new ControllerResources(new ParserThreads("raidb-sql-parser"), BetweenCommitPhases.NONE);
    }

    @Override
    public void close() {
        parserThreads.close();
    }
}
