package org.raidb.tools.console;

/** A long operation the console waited for (enable, backup, restore, add backend) ended in failure. */
final class OperationFailedException extends Exception {
    OperationFailedException(String message) {
        super(message);
    }
}
