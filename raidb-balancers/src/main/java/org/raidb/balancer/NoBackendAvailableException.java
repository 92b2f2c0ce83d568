package org.raidb.balancer;

/** No enabled backend can serve a request: all are disabled, or none holds its tables. */
public class NoBackendAvailableException extends Exception {
  public NoBackendAvailableException(String message) {
    super(message);
  }
}
