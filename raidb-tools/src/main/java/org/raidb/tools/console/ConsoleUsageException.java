package org.raidb.tools.console;

/** A console line that is not a command, or a command used wrongly; the message says what to type instead. */
final class ConsoleUsageException extends Exception {
    ConsoleUsageException(String message) {
        super(message);
    }
}
