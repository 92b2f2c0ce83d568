package org.raidb.controller.determinism;

/** What a non-deterministic call returns, and therefore which literal replaces it. */
enum CallValue {
    TIMESTAMP_WITH_ZONE,
    /** A timestamp without zone: the wall-clock time in the session's zone. */
    LOCAL_TIMESTAMP,
    DATE,
    TIME_WITH_ZONE,
    LOCAL_TIME,
    /** PostgreSQL's timeofday(): text such as {@code Sun Nov 22 03:40:00.123456 2026 UTC}. */
    TIME_OF_DAY_TEXT,
    /** MariaDB's UNIX_TIMESTAMP(): whole seconds since 1970. */
    EPOCH_SECONDS,
    /** A double in [0, 1). */
    RANDOM,
    UUID
}
