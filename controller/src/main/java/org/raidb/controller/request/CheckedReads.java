package org.raidb.controller.request;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.raidb.balancer.CheckedRead;
import org.raidb.balancer.ErrorCheckingLoadBalancer;
import org.raidb.balancer.NoBackendAvailableException;
import org.raidb.balancer.ReadVote;
import org.raidb.balancer.Request;
import org.raidb.balancer.RequestKind;
import org.raidb.balancer.VoteOutcome;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.backend.FailureClassifier;
import org.raidb.controller.result.ResultFingerprint;
import org.raidb.controller.session.SessionState;
import org.raidb.controller.transaction.BackendLane;
import org.raidb.controller.transaction.Transaction;
import org.raidb.controller.vdb.VirtualDatabase;

/**
 * Reads under RAIDb-1ec and RAIDb-2ec: the read runs on several backends at once, each answer is
 * reduced to a fingerprint of what the client would receive ({@link ResultFingerprint}), and the
 * answers are voted on. The majority's answer goes to the client and a backend that answered
 * otherwise is disabled; without a majority the client gets an error and nothing is disabled. The
 * answers are held in memory to be compared, so error-checked reads do not stream.
 */
final class CheckedReads {
  /** SQLState when the backends disagree without a majority: the data cannot be trusted. */
  static final String NO_MAJORITY = "XX001";

  private final VirtualDatabase vdb;
  private final BackendConnections connections;
  private final WritePath writes;

  CheckedReads(VirtualDatabase vdb, BackendConnections connections, WritePath writes) {
    this.vdb = vdb;
    this.connections = connections;
    this.writes = writes;
  }

  /** One backend's answer: a result, or the error it returned (voted on like any answer). */
  private record Answer(StatementResult result, SQLException error) {
    ByteBuffer fingerprint() {
      return error != null
          ? ByteBuffer.wrap(("error " + error.getSQLState()).getBytes(StandardCharsets.UTF_8))
          : ResultFingerprint.of(result.results());
    }
  }

  StatementResult read(SessionState s, AnalyzedStatement a, ExecuteRequest r, ErrorCheckingLoadBalancer ec)
      throws SQLException {
    Transaction tx = s.transaction();
    Request request = new Request(RequestKind.READ, a.tablesRead(), Set.of(), a.touchesEverything(),
        tx == null ? 0 : tx.id(), tx == null ? Set.of() : tx.backendNames(), tx != null && tx.hasWritten());
    CheckedRead<DatabaseBackend> plan;
    try {
      plan = ec.checkedRead(request, vdb.backends());
    } catch (NoBackendAvailableException e) {
      throw Errors.unavailable(vdb, e, null);
    }
    ReadVote<DatabaseBackend, ByteBuffer> vote = plan.startVote();
    Map<DatabaseBackend, Answer> answers = new ConcurrentHashMap<>();
    List<DatabaseBackend> ask = plan.askFirst();
    try {
      while (true) {
        askAll(ask, s, tx, r, vote, answers);
        VoteOutcome<DatabaseBackend, ByteBuffer> outcome = vote.outcome();
        if (outcome instanceof VoteOutcome.AskOthers<DatabaseBackend, ByteBuffer> more) {
          ask = more.backends();
        } else if (outcome instanceof VoteOutcome.Majority<DatabaseBackend, ByteBuffer> majority) {
          return majorityAnswer(majority, answers, r, tx);
        } else {
          throw new SQLException(((VoteOutcome.NoMajority<DatabaseBackend, ByteBuffer>) outcome).message()
              + "; statement: " + r.sql() + ". No backend was disabled: compare them (per-table checksums) and"
              + " restore the wrong ones", NO_MAJORITY);
        }
      }
    } finally {
      for (Answer answer : answers.values()) {
        if (answer.result() != null) {
          answer.result().discard();
        }
      }
    }
  }

  private StatementResult majorityAnswer(VoteOutcome.Majority<DatabaseBackend, ByteBuffer> majority,
      Map<DatabaseBackend, Answer> answers, ExecuteRequest r, Transaction tx) throws SQLException {
    for (DatabaseBackend outvoted : majority.outvoted()) {
      vdb.disableBackend(outvoted, "outvoted on an error-checked read: its answer to [" + r.sql() + "] differs from "
          + majority.agreeing().stream().map(DatabaseBackend::name).toList() + "'s");
      if (tx != null) {
        BackendLane lane = tx.forget(outvoted);
        if (lane != null) {
          connections.discard(lane.connection());
        }
      }
    }
    Answer chosen = answers.remove(majority.agreeing().get(0));
    if (chosen.error() != null) {
      if (tx != null) {
        tx.abort(chosen.error());
      }
      throw chosen.error();
    }
    return chosen.result();
  }

  /** Runs the read on every backend of {@code ask} at once and records each answer in the vote. */
  private void askAll(List<DatabaseBackend> ask, SessionState s, Transaction tx, ExecuteRequest r,
      ReadVote<DatabaseBackend, ByteBuffer> vote, Map<DatabaseBackend, Answer> answers) {
    List<CompletableFuture<Void>> running = new ArrayList<>(ask.size());
    for (DatabaseBackend b : ask) {
      running.add(CompletableFuture.runAsync(() -> {
        Answer answer = readOn(b, s, tx, r);
        if (answer == null) {
          vote.failed(b);
        } else {
          answers.put(b, answer);
          vote.answered(b, answer.fingerprint());
        }
      }, vdb.backendThreads()));
    }
    CompletableFuture.allOf(running.toArray(new CompletableFuture[0])).join();
  }

  /** The backend's answer, or null when the backend itself failed (it is then disabled). */
  private Answer readOn(DatabaseBackend b, SessionState s, Transaction tx, ExecuteRequest r) {
    b.requestStarted();
    Connection borrowed = null;
    try {
      Connection c;
      if (tx != null) {
        BackendLane lane = writes.joinTransaction(tx, b, s);
        lane.idle().join();
        c = lane.connection();
      } else {
        CompletableFuture<?> lastWrite = s.lastWrites().get(b);
        if (lastWrite != null) {
          lastWrite.handle((x, e) -> null).join(); // read your own writes
        }
        c = borrowed = connections.borrow(b, s);
      }
      return new Answer(StatementRunner.run(c, r, false, () -> { }, s.running()), null);
    } catch (SQLException e) {
      if (FailureClassifier.isBackendFailure(e)) {
        vdb.disableBackend(b, "read failed: " + e.getMessage());
        return null;
      }
      return new Answer(null, e);
    } finally {
      if (borrowed != null) {
        connections.giveBack(borrowed, s);
      }
      b.requestEnded();
    }
  }
}
