package org.raidb.controller.session;

/**
 * Called by a session once the final outcome of a request with an id is remembered and before it is sent:
 * the one point where a controller has applied a write but its client does not know yet. Tests of client
 * failover stop the controller there, as a crash at that moment would; the controller itself sets none.
 */
@FunctionalInterface
public interface AnswerHook {
    AnswerHook NONE = (clientSessionId, requestId, outcome) -> {};

    void beforeAnswer(String clientSessionId, long requestId, RequestOutcome outcome);
}
