package org.raidb.tools.demo;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress display redrawn in place with {@code \r}:
 * {@code [#####.....]  52% inserts 2,600/5,000}. Redrawn only when the percentage changes, so a
 * log file capturing it stays small.
 */
final class ProgressLine {

    private static final int WIDTH = 30;

    private final PrintStream out;
    private final String label;
    private final long total;
    private long done;
    private int shownPercent = -1;

    ProgressLine(PrintStream out, String label, long total) {
        this.out = out;
        this.label = label;
        this.total = Math.max(1, total);
        draw();
    }

    void advance(long steps) {
        done = Math.min(total, done + steps);
        draw();
    }

    /** Draws 100% and ends the line. */
    void finish() {
        done = total;
        draw();
        out.println();
        out.flush();
    }

    private void draw() {
        int percent = (int) (done * 100 / total);
        if (percent == shownPercent) {
            return;
        }
        shownPercent = percent;
        int filled = (int) (done * WIDTH / total);
        out.print(String.format(
                Locale.US,
                "\r[%s%s] %3d%% %s %,d/%,d",
                "#".repeat(filled),
                ".".repeat(WIDTH - filled),
                percent,
                label,
                done,
                total));
        out.flush();
    }
}
