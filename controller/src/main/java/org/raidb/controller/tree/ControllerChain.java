package org.raidb.controller.tree;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One virtual database's place in a tree of controllers. A controller connecting to a child controller
 * (a {@code jdbc:raidb:} backend) names, in the HELLO's client property {@link #PROPERTY}, itself and
 * every controller it has been reached from; a controller that finds itself on the chain of a
 * connection is on a cycle and refuses it, naming the chain. Each controller learns its ancestors from
 * the HELLOs it receives, so a cycle is refused as soon as its last link connects, however long it is.
 *
 * <p>An id is {@code vdb@host/token}: the token, new at every start, tells apart two controllers of one
 * host serving virtual databases of one name; the rest is for people reading the refusal.
 */
public final class ControllerChain {
    /** The client property of HELLO that carries the chain, comma-separated, nearest controller first. */
    public static final String PROPERTY = "raidbControllerChain";

    private final String self;
    /** Every controller this virtual database was reached from, nearest first as first seen. */
    private final Set<String> ancestors = new LinkedHashSet<>();

    public ControllerChain(String virtualDatabase) {
        this.self = virtualDatabase + "@" + hostName() + "/"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000_0000, Integer.MAX_VALUE));
    }

    /** This virtual database's id on chains. */
    public String self() {
        return self;
    }

    /** The chain to send to a child controller: this virtual database, then its known ancestors. */
    public synchronized String forChild() {
        List<String> out = new ArrayList<>();
        out.add(self);
        out.addAll(ancestors);
        return String.join(",", out);
    }

    /**
     * Admits a connection whose HELLO carried {@code chain} (null: a client, not a controller), and
     * remembers its controllers as ancestors.
     *
     * @throws SQLException 08004 naming the cycle when this virtual database is on the chain already
     */
    public void admit(String chain) throws SQLException {
        if (chain == null || chain.isBlank()) {
            return;
        }
        List<String> ids = Arrays.stream(chain.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
        if (ids.contains(self)) {
            List<String> cycle = new ArrayList<>(ids.subList(0, ids.indexOf(self) + 1));
            java.util.Collections.reverse(cycle);
            cycle.add(self);
            throw new ControllerCycleException(
                    "controllers form a cycle: " + String.join(" -> ", cycle) + " (each naming the next as a"
                            + " jdbc:raidb: backend); a backend must not lead back to its own controller: remove the"
                            + " backend that closes the cycle from its controller's configuration");
        }
        synchronized (this) {
            ancestors.addAll(ids);
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
