package org.raidb.driver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which controller of the URL's list a new connection tries first. Whatever the policy, every
 * controller is tried once before giving up, so the policy only spreads the load.
 */
public enum ControllerPolicy {
    /** The URL's order: the first controller takes every connection while it answers. */
    ORDERED("ordered"),
    /** A random start, then the following controllers in the URL's order. */
    RANDOM("random"),
    /** A JVM-wide counter picks the start, so that successive connections go to successive controllers. */
    ROUND_ROBIN("roundRobin");

    private static final AtomicInteger NEXT_START = new AtomicInteger();

    private final String propertyValue;

    ControllerPolicy(String propertyValue) {
        this.propertyValue = propertyValue;
    }

    public String propertyValue() {
        return propertyValue;
    }

    /** Parses the {@code controllerPolicy} property value, ignoring case; null if it names no policy. */
    public static ControllerPolicy fromProperty(String value) {
        for (ControllerPolicy p : values()) {
            if (p.propertyValue.toLowerCase(Locale.ROOT).equals(value.trim().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        return null;
    }

    /** The controllers in the order a connection attempt should try them. */
    public List<HostAndPort> order(List<HostAndPort> controllers) {
        int n = controllers.size();
        if (n <= 1) {
            return List.copyOf(controllers);
        }
        return switch (this) {
            case ORDERED -> List.copyOf(controllers);
            case RANDOM -> rotate(controllers, ThreadLocalRandom.current().nextInt(n));
            case ROUND_ROBIN -> rotate(controllers, Math.floorMod(NEXT_START.getAndIncrement(), n));
        };
    }

    /** The list starting at {@code start} and wrapping around: every controller appears exactly once. */
    static List<HostAndPort> rotate(List<HostAndPort> controllers, int start) {
        List<HostAndPort> rotated = new ArrayList<>(controllers);
        Collections.rotate(rotated, -start);
        return Collections.unmodifiableList(rotated);
    }
}
