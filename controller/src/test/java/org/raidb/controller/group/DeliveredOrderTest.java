package org.raidb.controller.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.raidb.controller.scheduler.Claim;
import org.raidb.controller.scheduler.ConflictClass;

class DeliveredOrderTest {
    private static final ConflictClass ROW_1 = ConflictClass.key("accounts", "accounts_pkey", true, List.of("1"));
    private static final ConflictClass ROW_2 = ConflictClass.key("accounts", "accounts_pkey", true, List.of("2"));
    private static final ConflictClass ACCOUNTS = ConflictClass.table("accounts");

    private final DeliveredOrder order = new DeliveredOrder();

    @Test
    void conflictingWritesAreGrantedInDeliveryOrderAndOthersAtOnce() throws Exception {
        DeliveredOrder.Ticket first = order.enqueue("t1", List.of(Claim.exclusive(ROW_1)));
        DeliveredOrder.Ticket second = order.enqueue("t2", List.of(Claim.exclusive(ROW_1)));
        DeliveredOrder.Ticket other = order.enqueue("t3", List.of(Claim.exclusive(ROW_2)));
        assertThat(granted(first)).isTrue();
        assertThat(granted(second)).isFalse();
        assertThat(granted(other)).as("another row of the same table").isTrue();
        assertThat(order.waiting()).isEqualTo(1);
        order.ended("t1");
        assertThat(granted(second)).isTrue();
    }

    @Test
    void aLaterWriterOfTheRowWaitsEvenWhenItCouldOvertake() throws Exception {
        // Shared holders are compatible, but a writer queued between them keeps the third reader behind it:
        // a member where the first reader finished early must not let the third overtake the writer.
        DeliveredOrder.Ticket reader = order.enqueue("r1", List.of(Claim.shared(ACCOUNTS)));
        DeliveredOrder.Ticket writer = order.enqueue("w", List.of(Claim.exclusive(ROW_1)));
        DeliveredOrder.Ticket laterReader = order.enqueue("r2", List.of(Claim.shared(ACCOUNTS)));
        assertThat(granted(reader)).isTrue();
        assertThat(granted(writer)).isFalse();
        assertThat(granted(laterReader)).isFalse();
        order.done(reader);
        assertThat(granted(writer)).isTrue();
        assertThat(granted(laterReader)).isFalse();
        order.done(writer);
        assertThat(granted(laterReader)).isTrue();
    }

    @Test
    void theWriteThatClosesACycleIsTheVictim() throws Exception {
        assertThat(granted(order.enqueue("t1", List.of(Claim.exclusive(ROW_1)))))
                .isTrue();
        assertThat(granted(order.enqueue("t2", List.of(Claim.exclusive(ROW_2)))))
                .isTrue();
        DeliveredOrder.Ticket t1Waits = order.enqueue("t1", List.of(Claim.exclusive(ROW_2)));
        assertThat(granted(t1Waits)).isFalse();
        DeliveredOrder.Ticket closes = order.enqueue("t2", List.of(Claim.exclusive(ROW_1)));
        assertThatThrownBy(() -> order.await(closes))
                .isInstanceOfSatisfying(
                        SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("40P01"));
        order.ended("t2"); // its rollback
        assertThat(granted(t1Waits)).isTrue();
    }

    @Test
    void aTransactionIsNeverBlockedByItsOwnEarlierWrites() throws Exception {
        assertThat(granted(order.enqueue("t1", List.of(Claim.shared(ROW_1))))).isTrue();
        assertThat(granted(order.enqueue("t1", List.of(Claim.exclusive(ROW_1)))))
                .isTrue();
        assertThat(granted(order.enqueue("t1", List.of(Claim.exclusive(ACCOUNTS)))))
                .isTrue();
    }

    @Test
    void aWaitingWriteOfATransactionThatEndsIsRefusedNotLeftWaiting() throws Exception {
        order.enqueue("t1", List.of(Claim.exclusive(ROW_1)));
        DeliveredOrder.Ticket waits = order.enqueue("t2", List.of(Claim.exclusive(ROW_1)));
        CompletableFuture<Throwable> heard = CompletableFuture.supplyAsync(() -> {
            try {
                order.await(waits);
                return null;
            } catch (Exception e) {
                return e;
            }
        });
        order.ended("t2");
        assertThat(heard.get(10, TimeUnit.SECONDS)).isInstanceOf(SQLException.class);
    }

    @Test
    void aWriteClaimingNothingIsGrantedAndHoldsNothing() throws Exception {
        DeliveredOrder.Ticket setting = order.enqueue("s", List.of());
        assertThat(granted(setting)).isTrue();
        order.done(setting);
        assertThat(order.waiting()).isZero();
    }

    private boolean granted(DeliveredOrder.Ticket t) {
        return order.isGranted(t);
    }
}
