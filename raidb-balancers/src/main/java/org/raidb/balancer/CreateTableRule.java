package org.raidb.balancer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Where a new table goes (RAIDb paper, sections 6.1 and 6.3): on every candidate backend, or on
 * {@code nodes} of them chosen in turn or at random, optionally among a configured list of backends.
 * A rule applies to the tables whose names match its glob, or to every table when it is a policy's
 * default rule.
 *
 * <p>Table patterns are globs ({@code *} any run of characters, {@code ?} one character, matched
 * against the whole lower-case unqualified name), not regular expressions: table names are full of
 * {@code _} and {@code .}, and {@code order_*} should mean what it looks like.
 *
 * <p>A rule keeps its own round-robin turn, so that tables matching one rule are spread over its
 * backends whatever other tables are created in between.
 */
public final class CreateTableRule {
    /** How a rule picks the backends of a new table. */
    public enum Choice {
        ALL("all"),
        ROUND_ROBIN("roundRobin"),
        RANDOM("random");

        private final String configName;

        Choice(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }

        public static Choice byName(String name) {
            for (Choice c : values()) {
                if (c.configName.equals(name)) {
                    return c;
                }
            }
            throw new IllegalArgumentException(
                    "unknown create-table policy '" + name + "': use all, roundRobin or random");
        }
    }

    private final String tables;
    private final Pattern tablePattern;
    private final Choice choice;
    private final int nodes;
    private final List<String> backends;
    private final Random random;
    private final AtomicInteger turn = new AtomicInteger();

    private CreateTableRule(String tables, Choice choice, int nodes, List<String> backends, Random random) {
        this.tables = tables;
        this.tablePattern = tables == null ? null : Pattern.compile(globToRegex(tables));
        this.choice = choice;
        this.nodes = nodes;
        this.backends = List.copyOf(backends);
        this.random = random;
    }

    /** Every candidate backend creates the table. */
    public static CreateTableRule all() {
        return new CreateTableRule(null, Choice.ALL, 0, List.of(), null);
    }

    /** {@code nodes} candidates create the table, the next ones in turn for each new table. */
    public static CreateTableRule roundRobin(int nodes) {
        return new CreateTableRule(null, Choice.ROUND_ROBIN, checkNodes(nodes), List.of(), null);
    }

    /** {@code nodes} candidates drawn with {@code random}: give it a seed to make placements repeatable. */
    public static CreateTableRule random(int nodes, Random random) {
        return new CreateTableRule(null, Choice.RANDOM, checkNodes(nodes), List.of(), random);
    }

    /**
     * The configuration's spelling: {@code policy} is all, roundRobin or random; {@code nodes} may be
     * null for the policy's default (every candidate for all, 1 otherwise).
     */
    public static CreateTableRule of(String policy, Integer nodes) {
        Choice c = Choice.byName(policy);
        if (c == Choice.ALL) {
            if (nodes != null) {
                throw new IllegalArgumentException(
                        "create-table policy all places the table on every candidate backend: remove nodes=" + nodes
                                + ", or use roundRobin or random to limit the copies");
            }
            return all();
        }
        int n = nodes == null ? 1 : nodes;
        return c == Choice.ROUND_ROBIN ? roundRobin(n) : random(n, new Random());
    }

    /** This rule for the tables whose names match {@code glob} only. */
    public CreateTableRule forTables(String glob) {
        if (glob == null || glob.isBlank()) {
            throw new IllegalArgumentException(
                    "a create-table rule's table pattern must not be empty; omit the rule's pattern "
                            + "only for the default rule");
        }
        return new CreateTableRule(glob.toLowerCase(Locale.ROOT), choice, nodes, backends, random);
    }

    /** This rule restricted to the named backends. */
    public CreateTableRule onBackends(List<String> names) {
        return new CreateTableRule(tables, choice, nodes, names, random);
    }

    /** The glob this rule applies to, or null for a default rule. */
    public String tables() {
        return tables;
    }

    public Choice choice() {
        return choice;
    }

    /** Copies a table placed by this rule gets; 0 with {@link Choice#ALL}: one per candidate. */
    public int nodes() {
        return nodes;
    }

    /** The backends this rule may place tables on; empty: any backend. */
    public List<String> backends() {
        return backends;
    }

    public boolean appliesTo(String table) {
        return tablePattern == null
                || tablePattern.matcher(table.toLowerCase(Locale.ROOT)).matches();
    }

    /** Whether every table this rule places has exactly one copy, as RAIDb-0 requires. */
    public boolean placesOneCopy() {
        return choice == Choice.ALL ? backends.size() == 1 : nodes == 1;
    }

    /**
     * The backends that create {@code table}, in the order of {@code backends}. A candidate is enabled,
     * allowed by this rule, holds all of {@code sourceTables} and has no disabled copy of the table (a
     * CREATE there would fail or shadow the stale copy).
     */
    <B extends BackendView> List<B> place(String table, Set<String> sourceTables, List<B> backends)
            throws NotEnoughBackendsException {
        List<B> candidates = new ArrayList<>(backends.size());
        for (B b : backends) {
            if (b.isEnabled()
                    && (this.backends.isEmpty() || this.backends.contains(b.name()))
                    && !b.isTableDisabled(table)
                    && b.holdsAll(sourceTables)) {
                candidates.add(b);
            }
        }
        int needed = choice == Choice.ALL ? 1 : nodes;
        if (candidates.size() < needed) {
            throw notEnough(table, sourceTables, needed, candidates);
        }
        return switch (choice) {
            case ALL -> candidates;
            case ROUND_ROBIN -> inTurn(candidates);
            case RANDOM -> atRandom(candidates);
        };
    }

    private <B> List<B> inTurn(List<B> candidates) {
        int n = candidates.size();
        int start = Math.floorMod(turn.getAndIncrement(), n);
        List<B> chosen = new ArrayList<>(nodes);
        // Taken in candidate order so that the statement reaches backends in the virtual database's order.
        for (int i = 0; i < n; i++) {
            if (Math.floorMod(i - start, n) < nodes) {
                chosen.add(candidates.get(i));
            }
        }
        return chosen;
    }

    private <B> List<B> atRandom(List<B> candidates) {
        List<Integer> indexes = new ArrayList<>(candidates.size());
        for (int i = 0; i < candidates.size(); i++) {
            indexes.add(i);
        }
        synchronized (random) {
            Collections.shuffle(indexes, random);
        }
        List<Integer> picked = new ArrayList<>(indexes.subList(0, nodes));
        Collections.sort(picked);
        List<B> chosen = new ArrayList<>(nodes);
        for (int i : picked) {
            chosen.add(candidates.get(i));
        }
        return chosen;
    }

    private <B extends BackendView> NotEnoughBackendsException notEnough(
            String table, Set<String> sourceTables, int needed, List<B> candidates) {
        StringBuilder m = new StringBuilder("cannot create table ")
                .append(table)
                .append(": the ")
                .append(this)
                .append(" needs ")
                .append(needed)
                .append(needed == 1 ? " backend" : " backends")
                .append(" but ")
                .append(
                        candidates.isEmpty()
                                ? "none"
                                : candidates.size() + " (" + String.join(", ", names(candidates)) + ")")
                .append(candidates.size() <= 1 ? " qualifies" : " qualify")
                .append(" (enabled")
                .append(backends.isEmpty() ? "" : ", one of " + String.join(", ", backends));
        if (!sourceTables.isEmpty()) {
            m.append(", holding ")
                    .append(String.join(", ", sourceTables.stream().sorted().toList()));
        }
        m.append(", no disabled copy of ").append(table).append("): enable backends");
        if (choice != Choice.ALL) {
            m.append(" or lower nodes");
        }
        return new NotEnoughBackendsException(m.toString(), needed, candidates.size());
    }

    private static List<String> names(List<? extends BackendView> backends) {
        return backends.stream().map(BackendView::name).toList();
    }

    private static int checkNodes(int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("create-table nodes must be at least 1, got " + nodes);
        }
        return nodes;
    }

    private static String globToRegex(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return re.toString();
    }

    /** How messages name the rule: "create-table rule for 'order*' (roundRobin, 2 nodes, on db1, db2)". */
    @Override
    public String toString() {
        return "create-table rule " + (tables == null ? "by default" : "for '" + tables + "'") + " ("
                + choice.configName()
                + (choice == Choice.ALL ? "" : ", " + nodes + (nodes == 1 ? " node" : " nodes"))
                + (backends.isEmpty() ? "" : ", on " + String.join(", ", backends)) + ")";
    }
}
