package org.raidb.tpcw.play;

import java.util.Locale;

/** How fast a trace is replayed. */
public enum Pace {
    /** Each event no earlier than its recorded offset from the start: the recorded load. */
    RECORDED,
    /** Each event as soon as the session's previous one is done: the peak throughput. */
    MAX;

    public static Pace parse(String name) {
        for (Pace p : values()) {
            if (p.name().toLowerCase(Locale.ROOT).equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("no pace '" + name + "': use recorded or max");
    }
}
