package org.raidb.balancer;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * RAIDb-1, full mirroring: every backend is meant to hold every table, so a read goes to any enabled
 * backend (chosen by the read policy) and a write to all of them. Table holdings are still checked,
 * so that a backend that lacks a table (for example one created while it was disabled) is never
 * asked for it.
 */
public final class Raidb1LoadBalancer implements LoadBalancer {
  private final ReadPolicy readPolicy;
  private final CompletionPolicy completion;

  public Raidb1LoadBalancer(ReadPolicy readPolicy, CompletionPolicy completion) {
    this.readPolicy = readPolicy;
    this.completion = completion;
  }

  @Override
  public <B extends BackendView> B readBackend(Request request, List<B> backends) throws NoBackendAvailableException {
    List<B> candidates = new ArrayList<>(backends.size());
    boolean restrictToTransaction = request.transactionHasWritten() && !request.transactionBackends().isEmpty();
    for (B b : backends) {
      if (b.isEnabled()
          && (request.touchesEverything() || b.holdsAll(request.tablesRead()))
          && (!restrictToTransaction || request.transactionBackends().contains(b.name()))) {
        candidates.add(b);
      }
    }
    if (candidates.isEmpty()) {
      throw new NoBackendAvailableException(noBackendMessage(request.tablesRead(), backends));
    }
    return candidates.size() == 1 ? candidates.get(0) : readPolicy.choose(candidates, request);
  }

  @Override
  public <B extends BackendView> List<B> writeBackends(Request request, List<B> backends) throws NoBackendAvailableException {
    List<B> targets = new ArrayList<>(backends.size());
    for (B b : backends) {
      if (b.isEnabled() && (request.touchesEverything() || holdsAny(b, request.tablesWritten()))) {
        targets.add(b);
      }
    }
    if (targets.isEmpty()) {
      throw new NoBackendAvailableException(noBackendMessage(request.tablesWritten(), backends));
    }
    return targets;
  }

  /** A write naming no table (a SET, a sequence-less function) goes to every enabled backend. */
  private static boolean holdsAny(BackendView b, Set<String> tables) {
    if (tables.isEmpty()) {
      return true;
    }
    for (String t : tables) {
      if (b.holdsTable(t)) {
        return true;
      }
    }
    return false;
  }

  private static String noBackendMessage(Set<String> tables, List<? extends BackendView> backends) {
    boolean anyEnabled = backends.stream().anyMatch(BackendView::isEnabled);
    if (!anyEnabled) {
      return "no backend is enabled; enable a backend before sending requests";
    }
    return "no enabled backend holds all of the tables " + tables;
  }

  @Override
  public CompletionPolicy completion() {
    return completion;
  }

  public ReadPolicy readPolicy() {
    return readPolicy;
  }
}
