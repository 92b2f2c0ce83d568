package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ControllerPolicyTest {
    private static final HostAndPort A = new HostAndPort("a", 1);
    private static final HostAndPort B = new HostAndPort("b", 1);
    private static final HostAndPort C = new HostAndPort("c", 1);
    private static final List<HostAndPort> ALL = List.of(A, B, C);

    @Test
    void orderedKeepsTheUrlOrder() {
        assertThat(ControllerPolicy.ORDERED.order(ALL)).containsExactly(A, B, C);
    }

    @Test
    void rotateWrapsAround() {
        assertThat(ControllerPolicy.rotate(ALL, 1)).containsExactly(B, C, A);
        assertThat(ControllerPolicy.rotate(ALL, 2)).containsExactly(C, A, B);
    }

    @Test
    void roundRobinStartsEachConnectionOneFurther() {
        List<HostAndPort> first = ControllerPolicy.ROUND_ROBIN.order(ALL);
        List<HostAndPort> second = ControllerPolicy.ROUND_ROBIN.order(ALL);
        List<HostAndPort> third = ControllerPolicy.ROUND_ROBIN.order(ALL);
        assertThat(Set.of(first.get(0), second.get(0), third.get(0))).containsExactlyInAnyOrder(A, B, C);
        assertThat(second.get(0)).isEqualTo(first.get(1));
        for (List<HostAndPort> order : List.of(first, second, third)) {
            assertThat(order).containsExactlyInAnyOrder(A, B, C);
        }
    }

    @Test
    void randomTriesEveryControllerOnceAndVariesTheStart() {
        Set<HostAndPort> starts = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            List<HostAndPort> order = ControllerPolicy.RANDOM.order(ALL);
            assertThat(order).containsExactlyInAnyOrder(A, B, C);
            starts.add(order.get(0));
        }
        assertThat(starts).hasSize(3);
    }

    @Test
    void parsesPropertyValuesIgnoringCase() {
        assertThat(ControllerPolicy.fromProperty("roundrobin")).isEqualTo(ControllerPolicy.ROUND_ROBIN);
        assertThat(ControllerPolicy.fromProperty("Ordered")).isEqualTo(ControllerPolicy.ORDERED);
        assertThat(ControllerPolicy.fromProperty("nearest")).isNull();
    }
}
