package org.raidb.controller.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TableLockManagerTest {
  private static CompletableFuture<Void> acquireAsync(TableLockManager m, long tx, String... tables) {
    return CompletableFuture.runAsync(() -> {
      try {
        m.acquire(tx, List.of(tables));
      } catch (SQLException e) {
        throw new RuntimeException(e);
      }
    });
  }

  @Test
  void disjointTablesDoNotWaitAndConflictingOnesDo() throws Exception {
    TableLockManager m = new TableLockManager(false, 10_000);
    m.acquire(1, List.of("a"));
    m.acquire(2, List.of("b"));
    CompletableFuture<Void> waiting = acquireAsync(m, 3, "a");
    await().during(200, TimeUnit.MILLISECONDS).atMost(1, TimeUnit.SECONDS).until(() -> !waiting.isDone());
    m.releaseAll(1);
    waiting.get(5, TimeUnit.SECONDS);
    assertThat(m.held(3)).containsExactly("a");
  }

  @Test
  void everyTableConflictsWithAnyTable() throws Exception {
    TableLockManager m = new TableLockManager(false, 10_000);
    m.acquire(1, List.of("x"));
    CompletableFuture<Void> all = acquireAsync(m, 2, TableLockManager.EVERY_TABLE);
    await().during(200, TimeUnit.MILLISECONDS).atMost(1, TimeUnit.SECONDS).until(() -> !all.isDone());
    m.releaseAll(1);
    all.get(5, TimeUnit.SECONDS);
    CompletableFuture<Void> other = acquireAsync(m, 3, "y");
    await().during(200, TimeUnit.MILLISECONDS).atMost(1, TimeUnit.SECONDS).until(() -> !other.isDone());
    m.releaseAll(2);
    other.get(5, TimeUnit.SECONDS);
  }

  @Test
  void theTransactionClosingACycleIsTheVictim() throws Exception {
    TableLockManager m = new TableLockManager(false, 10_000);
    m.acquire(1, List.of("a"));
    m.acquire(2, List.of("b"));
    CompletableFuture<Void> first = acquireAsync(m, 1, "b"); // 1 waits for 2
    await().atMost(5, TimeUnit.SECONDS).until(() -> m.held(1).equals(Set.of("a")) && !first.isDone());
    assertThatThrownBy(() -> m.acquire(2, List.of("a")))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("deadlock")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
    m.releaseAll(2); // the victim is rolled back
    first.get(5, TimeUnit.SECONDS);
    assertThat(m.held(1)).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void waitingTooLongFailsWithLockNotAvailable() throws Exception {
    TableLockManager m = new TableLockManager(false, 200);
    m.acquire(1, List.of("a"));
    assertThatThrownBy(() -> m.acquire(2, List.of("a")))
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55P03"));
    assertThat(m.held(2)).isEmpty();
  }

  @Test
  void queryModeSeesWaitsThatHappenOnTheBackends() throws Exception {
    // Transaction 1 wrote "accounts" (row locks stay on the backends); transaction 2's statement now holds the
    // table and may be blocked by those row locks; 1 asking for the table again would wait forever.
    TableLockManager m = new TableLockManager(true, 10_000);
    m.acquire(1, List.of("accounts"));
    m.wrote(1, List.of("accounts"));
    m.release(1, List.of("accounts"));
    m.acquire(2, List.of("accounts"));
    m.wrote(2, List.of("accounts"));
    assertThatThrownBy(() -> m.acquire(1, List.of("accounts"))) // after the grace period: 2 stays blocked
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
  }

  @Test
  void aNewcomerQueuesBehindAnEarlierWaiterInsteadOfStarvingIt() throws Exception {
    TableLockManager m = new TableLockManager(false, 10_000);
    m.acquire(1, List.of("a"));
    CompletableFuture<Void> earlier = acquireAsync(m, 2, "a");
    await().atMost(5, TimeUnit.SECONDS).until(() -> m.waiting() == 1);
    CompletableFuture<Void> newcomer = acquireAsync(m, 3, "a");
    await().atMost(5, TimeUnit.SECONDS).until(() -> m.waiting() == 2);
    m.releaseAll(1);
    earlier.get(5, TimeUnit.SECONDS);
    assertThat(m.held(2)).containsExactly("a");
    assertThat(newcomer).isNotDone();
    m.releaseAll(2);
    newcomer.get(5, TimeUnit.SECONDS);
    assertThat(m.held(3)).containsExactly("a");
  }
}
