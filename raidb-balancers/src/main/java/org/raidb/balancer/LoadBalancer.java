package org.raidb.balancer;

import java.util.List;

/**
 * The routing SPI: given the backends of a virtual database, where does a request go. A RAIDb level
 * is one implementation; it decides and never touches a backend itself.
 */
public interface LoadBalancer {
  /** The one backend a read goes to. */
  <B extends BackendView> B readBackend(Request request, List<B> backends) throws NoBackendAvailableException;

  /** Every backend a write, DDL or call goes to, in the virtual database's backend order. */
  <B extends BackendView> List<B> writeBackends(Request request, List<B> backends) throws NoBackendAvailableException;

  /** When a write's client gets its answer. */
  CompletionPolicy completion();
}
