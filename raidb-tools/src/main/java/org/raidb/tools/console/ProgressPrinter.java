package org.raidb.tools.console;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * How a followed operation's progress line reaches the user. On a terminal it is redrawn in place; in a file or a pipe
 * a redrawn line is thousands of {@code \r}-separated copies, so a script's log gets a plain line every few seconds
 * instead, and nothing with {@code --quiet}. The line saying how the operation ended is always printed.
 */
final class ProgressPrinter {

    /** Where the output goes, as the console decided from its options and its terminal. */
    enum Style {
        /** Redrawn in place with {@code \r}. */
        TERMINAL,
        /** One plain line at most every {@code every}. */
        PLAIN,
        /** No progress, only the end. */
        QUIET
    }

    private final PrintWriter out;
    private final Style style;
    private final Duration every;
    private final InstantSource clock;
    /** Terminal: the length of the line on screen, 0 when none is being redrawn. */
    private int redrawn;
    /** Plain: when the last line was printed for the operation followed, null before the first. */
    private Instant lastPrinted;

    /**
     * @param every plain style: the least time between two progress lines
     * @param clock plain style: what {@code every} is measured with (tests move it by hand)
     */
    ProgressPrinter(PrintWriter out, Style style, Duration every, InstantSource clock) {
        this.out = out;
        this.style = style;
        this.every = every;
        this.clock = clock;
    }

    /** The operation is still running and this is where it stands. */
    void running(String line) {
        switch (style) {
            case TERMINAL -> redraw(line);
            case PLAIN -> {
                Instant now = clock.instant();
                if (lastPrinted == null || !now.isBefore(lastPrinted.plus(every))) {
                    out.println(line);
                    out.flush();
                    lastPrinted = now;
                }
            }
            case QUIET -> {
                // nothing until it ends
            }
        }
    }

    /** The operation ended: {@code line} is its final state, printed in every style. */
    void ended(String line) {
        if (style == Style.TERMINAL) {
            redraw(line);
            out.println();
        } else {
            out.println(line);
        }
        out.flush();
        forget();
    }

    /** Watching stopped while the operation goes on: a redrawn line is ended so that the next output starts anew. */
    void stopped() {
        if (redrawn > 0) {
            out.println();
        }
        forget();
    }

    private void redraw(String line) {
        out.print("\r" + line + " ".repeat(Math.max(0, redrawn - line.length())));
        out.flush();
        redrawn = Math.max(1, line.length());
    }

    private void forget() {
        redrawn = 0;
        lastPrinted = null;
    }
}
