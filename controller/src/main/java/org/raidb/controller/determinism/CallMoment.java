package org.raidb.controller.determinism;

/** Which instant a time function reports. */
enum CallMoment {
    /** PostgreSQL's now(): the same for every statement of a transaction. */
    TRANSACTION_START,
    /** MariaDB's NOW(), PostgreSQL's statement_timestamp(). */
    STATEMENT_START,
    /** clock_timestamp(), SYSDATE(): the time the call runs, a fresh read of the clock. */
    CLOCK,
    /** The call is not about time. */
    NONE
}
