package org.raidb.recovery;

/**
 * What the controller last recorded about a backend, kept across restarts. Not the controller's
 * runtime {@code BackendState}: this one also says which recovery step was running.
 */
public enum RecordedBackendState {
    ENABLED,
    DISABLED,
    /** A dump is being restored onto it. */
    RESTORING,
    /** The log is being replayed onto it. */
    REPLAYING
}
