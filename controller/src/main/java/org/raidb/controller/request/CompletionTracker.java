package org.raidb.controller.request;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Collects the backends' answers to one write as they arrive. {@link #quorum()} completes as soon as
 * {@code required} backends succeeded with the same answer (the completion policy is met), or with
 * null once every backend answered without that happening; {@link #all()} completes when every
 * backend answered.
 */
final class CompletionTracker {
  private final int required;
  private final int expected;
  private final List<BackendOutcome> outcomes = new ArrayList<>();
  private final Map<String, Integer> successesBySignature = new HashMap<>();
  private final CompletableFuture<BackendOutcome> quorum = new CompletableFuture<>();
  private final CompletableFuture<List<BackendOutcome>> all = new CompletableFuture<>();

  CompletionTracker(int required, int expected) {
    this.required = Math.max(1, required);
    this.expected = expected;
  }

  void add(BackendOutcome o) {
    boolean quorumNow = false;
    boolean allNow;
    synchronized (this) {
      outcomes.add(o);
      if (o.succeeded() && !quorum.isDone()) {
        int n = successesBySignature.merge(o.result().signature(), 1, Integer::sum);
        quorumNow = n >= required;
      }
      allNow = outcomes.size() == expected;
    }
    if (quorumNow) {
      quorum.complete(o);
    }
    if (allNow) {
      List<BackendOutcome> copy;
      synchronized (this) {
        copy = List.copyOf(outcomes);
      }
      // Outcomes are completed in backend order for reproducible tie-breaking in the resolver.
      quorum.complete(null);
      all.complete(copy);
    }
  }

  CompletableFuture<BackendOutcome> quorum() {
    return quorum;
  }

  CompletableFuture<List<BackendOutcome>> all() {
    return all;
  }
}
