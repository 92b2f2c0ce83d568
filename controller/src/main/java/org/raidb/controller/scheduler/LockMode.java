package org.raidb.controller.scheduler;

/**
 * How a conflict class is held, as in multiple-granularity locking: shared or exclusive on the class
 * itself, and the matching intention on each class above it. A whole table held shared (a write
 * reading it) thus meets every row of it held exclusive, while two rows meet only if they are one.
 */
public enum LockMode {
    /** Intention shared: some class below is held shared. */
    IS,
    /** Intention exclusive: some class below is held exclusive (also: rows nobody else can name yet). */
    IX,
    SHARED,
    EXCLUSIVE;

    /** Whether two transactions may hold a class in these modes at once. */
    public boolean compatibleWith(LockMode other) {
        return switch (this) {
            case IS -> other != EXCLUSIVE;
            case IX -> other == IS || other == IX;
            case SHARED -> other == IS || other == SHARED;
            case EXCLUSIVE -> false;
        };
    }

    /** The intention that holding a class in this mode puts on the classes above it. */
    LockMode intention() {
        return this == IS || this == SHARED ? IS : IX;
    }
}
