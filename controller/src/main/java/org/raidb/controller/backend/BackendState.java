package org.raidb.controller.backend;

/** Whether a backend takes part in the virtual database. */
public enum BackendState {
    /** Serving reads and receiving every write; identical to the other enabled backends. */
    ENABLED,
    /** Out of the array: receives nothing until it is enabled again. */
    DISABLED,
    /** Out of the array, being brought back: a dump is loaded or the recovery log replayed into it. */
    RECOVERING
}
