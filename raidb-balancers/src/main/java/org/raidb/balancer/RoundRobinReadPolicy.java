package org.raidb.balancer;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Each read goes to the next candidate in turn. */
public final class RoundRobinReadPolicy implements ReadPolicy {
  private final AtomicInteger next = new AtomicInteger();

  @Override
  public <B extends BackendView> B choose(List<B> candidates, Request request) {
    int i = Math.floorMod(next.getAndIncrement(), candidates.size());
    return candidates.get(i);
  }
}
