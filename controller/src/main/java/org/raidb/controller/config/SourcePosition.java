package org.raidb.controller.config;

/** A place in a configuration file, used to prefix error messages the way compilers do: {@code FILE:LINE:COLUMN: }. */
record SourcePosition(String source, int line, int column) {

    /** The message a user sees: {@code FILE:LINE:COLUMN: what is wrong}; unknown parts (-1) are left out. */
    String describe(String whatIsWrong) {
        StringBuilder message = new StringBuilder(source);
        if (line > 0) {
            message.append(':').append(line);
            if (column > 0) {
                message.append(':').append(column);
            }
        }
        return message.append(": ").append(whatIsWrong).toString();
    }
}
