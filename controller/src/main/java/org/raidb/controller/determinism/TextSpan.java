package org.raidb.controller.determinism;

/**
 * A stretch {@code [start, end)} of a statement text: one statement of a text holding several, whose
 * calls the rewriter replaces while it leaves the others (DDL, where {@code DEFAULT now()} must stay
 * a call) as written.
 */
public record TextSpan(int start, int end) {
    public TextSpan {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad span [" + start + ", " + end + ")");
        }
    }

    boolean contains(int position) {
        return position >= start && position < end;
    }
}
