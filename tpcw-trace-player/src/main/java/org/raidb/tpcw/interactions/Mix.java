package org.raidb.tpcw.interactions;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.raidb.tpcw.populate.TpcwRandom;

/**
 * The specification's three workload mixes: how often each interaction runs, in percent (in
 * {@link Interaction} order). Browsing is 95% read-only interactions, shopping 80%, ordering 50%.
 *
 * <p>The specification walks a Markov chain between pages; drawing each interaction independently
 * with the mix's frequencies gives the same long-run frequencies, which is what the database sees.
 */
public enum Mix {
    BROWSING(29.00, 11.00, 11.00, 21.00, 12.00, 11.00, 2.00, 0.82, 0.75, 0.69, 0.30, 0.25, 0.10, 0.09),
    SHOPPING(16.00, 5.00, 5.00, 17.00, 20.00, 17.00, 11.60, 3.00, 2.60, 1.20, 0.75, 0.66, 0.10, 0.09),
    ORDERING(9.12, 0.46, 0.46, 12.35, 14.53, 13.08, 13.53, 12.86, 12.73, 10.18, 0.25, 0.22, 0.12, 0.11);

    // Unmodifiable (an EnumMap no one else holds, wrapped): Error Prone trusts only Guava's immutable types.
    @SuppressWarnings("ImmutableEnumChecker")
    private final Map<Interaction, Double> percent;

    /** {@code percent}: one figure per interaction, in {@link Interaction} order as in the specification's table. */
    Mix(double... percent) {
        this.percent = byInteraction(percent);
    }

    private static Map<Interaction, Double> byInteraction(double... percent) {
        List<Interaction> interactions = List.of(Interaction.values());
        if (percent.length != interactions.size()) {
            throw new IllegalArgumentException(
                    percent.length + " percentages for " + interactions.size() + " interactions");
        }
        Map<Interaction, Double> byInteraction = new EnumMap<>(Interaction.class);
        for (int i = 0; i < percent.length; i++) {
            byInteraction.put(interactions.get(i), percent[i]);
        }
        return Collections.unmodifiableMap(byInteraction);
    }

    /** How often {@code interaction} runs, in percent. */
    public double percent(Interaction interaction) {
        return percent.get(interaction);
    }

    /** Sum of the browse interactions' frequencies: 95, 80 or 50. */
    public double readOnlyPercent() {
        return Arrays.stream(Interaction.values())
                .filter(Interaction::isBrowsing)
                .mapToDouble(this::percent)
                .sum();
    }

    /** The next interaction an emulated browser runs. */
    public Interaction next(TpcwRandom random) {
        double draw = random.uniform() * 100;
        double cumulative = 0;
        for (Interaction interaction : Interaction.values()) {
            cumulative += percent(interaction);
            if (draw < cumulative) {
                return interaction;
            }
        }
        return Interaction.HOME; // rounding: the percentages add up to 100.00
    }

    /** The lower-case name used on the command line and in traces. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a command-line or trace name; the message lists the valid names. */
    public static Mix parse(String name) {
        return Arrays.stream(values())
                .filter(m -> m.cliName().equals(name.toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no mix '" + name + "': use one of "
                        + Arrays.stream(values()).map(Mix::cliName).collect(Collectors.joining(", "))));
    }
}
