package org.raidb.recovery;

/** What the controller last recorded about a backend, kept across restarts. */
public enum BackendState {
  ENABLED,
  DISABLED,
  /** A dump is being restored onto it. */
  RESTORING,
  /** The log is being replayed onto it. */
  REPLAYING
}
