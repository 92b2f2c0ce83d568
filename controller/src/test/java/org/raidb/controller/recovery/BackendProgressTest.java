package org.raidb.controller.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class BackendProgressTest {

    private static BackendProgress sent(long from, long to) {
        BackendProgress p = new BackendProgress();
        for (long i = from; i <= to; i++) {
            p.sent(i);
        }
        return p;
    }

    @Test
    void theCheckpointStopsBeforeTheFirstMissedItemAndListsTheAppliedOnesAfterIt() {
        BackendProgress p = sent(1, 6);
        p.applied(1);
        p.applied(2);
        p.applied(4);
        p.missed(3);
        p.freeze(7);
        p.applied(5);
        p.missed(6);

        assertThat(p.edge()).isEqualTo(new BackendProgress.Edge(2, List.of(4L, 5L)));
    }

    @Test
    void aBackendThatAppliedEverythingStopsWhereTheLogWasWhenItLeft() {
        BackendProgress p = sent(1, 3);
        p.applied(2);
        p.applied(1);
        p.applied(3);
        p.freeze(9);

        assertThat(p.edge()).isEqualTo(new BackendProgress.Edge(9, List.of()));
    }

    @Test
    void anItemDuringWhichTheConnectionBrokeIsMissingAndInDoubt() {
        BackendProgress p = sent(1, 4);
        p.applied(1);
        p.missed(2, true);
        p.applied(3);
        p.missed(4, false);
        p.freeze(4);

        assertThat(p.edge()).isEqualTo(new BackendProgress.Edge(1, List.of(3L), List.of(2L)));
    }

    @Test
    void anItemInDoubtThatFailedEverywhereIsNeitherGapNorDoubt() {
        BackendProgress p = sent(1, 2);
        p.applied(1);
        p.missed(2, true);
        p.failedEverywhere(2);
        p.freeze(2);

        assertThat(p.edge()).isEqualTo(new BackendProgress.Edge(2, List.of()));
    }

    @Test
    void anItemThatFailedEverywhereIsNoGap() {
        BackendProgress p = sent(1, 3);
        p.applied(1);
        p.missed(2);
        p.applied(3);
        p.failedEverywhere(2);
        p.freeze(3);

        assertThat(p.edge()).isEqualTo(new BackendProgress.Edge(3, List.of()));
    }

    @Test
    void workStillUnansweredWhenTheWaitEndsCountsAsMissedAndInDoubt() throws Exception {
        BackendProgress p = sent(1, 3);
        p.applied(1);
        p.applied(3);
        p.freeze(3);
        p.awaitSettled(System.nanoTime() + 1_000_000);

        // It may still be running on the server, and commit there after the edge was taken.
        assertThat(p.edge()).isEqualTo(new BackendProgress.Edge(1, List.of(3L), List.of(2L)));
    }

    /** Answers from many lanes at once: the edge is the one the answers imply, whatever their order. */
    @RepeatedTest(20)
    void concurrentAnswersGiveTheExactEdge() throws Exception {
        int n = 2_000;
        BackendProgress p = sent(1, n);
        Set<Long> missed = ConcurrentHashMap.newKeySet();
        List<Long> order = new ArrayList<>();
        for (long i = 1; i <= n; i++) {
            order.add(i);
        }
        Collections.shuffle(order);
        ExecutorService lanes = Executors.newFixedThreadPool(8);
        for (long position : order) {
            lanes.execute(() -> {
                if (position % 97 == 0) {
                    missed.add(position);
                    p.missed(position);
                } else {
                    p.applied(position);
                }
            });
        }
        lanes.shutdown();
        assertThat(lanes.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        p.freeze(n);

        BackendProgress.Edge edge = p.edge();
        long firstMissed = missed.stream().min(Long::compare).orElseThrow();
        assertThat(edge.position()).isEqualTo(firstMissed - 1);
        List<Long> expectedAfter = new ArrayList<>();
        for (long i = firstMissed + 1; i <= n; i++) {
            if (!missed.contains(i)) {
                expectedAfter.add(i);
            }
        }
        assertThat(edge.appliedAfter()).isEqualTo(expectedAfter);
    }
}
