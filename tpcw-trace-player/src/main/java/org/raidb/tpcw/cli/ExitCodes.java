package org.raidb.tpcw.cli;

/** Exit codes of {@code tpcw}: as picocli's, and as {@code raidb}'s. */
final class ExitCodes {
    static final int OK = 0;
    /** Something failed while running: database unreachable, bad trace, errors during a run. */
    static final int FAILURE = 1;
    /** Bad command line. */
    static final int USAGE = 2;

    private ExitCodes() {}
}
