package org.raidb.tools.console;

/** Exit statuses of {@code raidb console -c}, for scripts (docs/admin.md). */
final class ConsoleExit {
    static final int OK = 0;
    /** The controller refused or could not do the command (unknown backend, not your virtual database...). */
    static final int COMMAND_FAILED = 1;
    /** Not a command, or a command used wrongly; same as picocli's code for a bad command line. */
    static final int USAGE = 2;
    /** No controller answers at that address, or it refused the credentials. */
    static final int NO_CONNECTION = 3;

    private ConsoleExit() {}
}
