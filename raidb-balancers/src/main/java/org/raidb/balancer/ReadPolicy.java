package org.raidb.balancer;

import java.util.List;

/**
 * Chooses which of the backends able to answer a read gets it. Implementations must be
 * thread-safe: one instance serves every session of a virtual database.
 */
public interface ReadPolicy {
  /**
   * @param candidates enabled backends that hold every table of the request; never empty
   */
  <B extends BackendView> B choose(List<B> candidates, Request request);
}
