package org.raidb.tpcw.interactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.raidb.tpcw.populate.TpcwRandom;

class MixTest {

    @Test
    void readOnlyShareIsTheSpecificationsAndFrequenciesAddUpTo100() {
        assertThat(Mix.BROWSING.readOnlyPercent()).isCloseTo(95.0, within(1e-9));
        assertThat(Mix.SHOPPING.readOnlyPercent()).isCloseTo(80.0, within(1e-9));
        assertThat(Mix.ORDERING.readOnlyPercent()).isCloseTo(50.0, within(1e-9));
        for (Mix mix : Mix.values()) {
            double sum = 0;
            for (Interaction i : Interaction.values()) {
                sum += mix.percent(i);
            }
            assertThat(sum).as(mix.name()).isCloseTo(100.0, within(1e-9));
        }
    }

    @Test
    void drawsFollowTheMixFrequencies() {
        TpcwRandom random = new TpcwRandom(7);
        Map<Interaction, Integer> counts = new EnumMap<>(Interaction.class);
        int draws = 200_000;
        for (int n = 0; n < draws; n++) {
            counts.merge(Mix.ORDERING.next(random), 1, Integer::sum);
        }
        for (Interaction i : Interaction.values()) {
            double share = 100.0 * counts.getOrDefault(i, 0) / draws;
            assertThat(share).as(i.name()).isCloseTo(Mix.ORDERING.percent(i), within(0.5));
        }
    }

    @Test
    void unknownMixNameListsTheValidOnes() {
        assertThat(Mix.parse("Shopping")).isEqualTo(Mix.SHOPPING);
        assertThatThrownBy(() -> Mix.parse("buying"))
                .hasMessage("no mix 'buying': use one of browsing, shopping, ordering");
    }
}
