package org.raidb.controller;

import org.raidb.controller.config.RaidbConfig;

/** A running controller: the client listener and the virtual databases it serves. */
public final class Controller implements AutoCloseable {

  /** Starts listening and serving every virtual database of the configuration. */
  public static Controller start(RaidbConfig config) throws Exception {
    throw new UnsupportedOperationException("being written");
  }

  /** The port clients connect to (the configured one, or the one picked when 0 was configured). */
  public int port() {
    throw new UnsupportedOperationException("being written");
  }

  /** Blocks until {@link #close} is called from another thread or a shutdown hook. */
  public void awaitTermination() throws InterruptedException {
    throw new UnsupportedOperationException("being written");
  }

  @Override
  public void close() {}
}
