package org.raidb.balancer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The vote on one error-checked read (RAIDb-1ec and -2ec, RAIDb paper section 3.3): the answer of a
 * majority of the electorate wins, the backends that answered otherwise are outvoted. The electorate
 * is every enabled backend able to answer the read when it was routed, not only those asked first, so
 * that asking a few does not lower the bar: with five holders, three must agree.
 *
 * <p>Fingerprints are compared with {@code equals}: use a String, a record, or
 * {@code ByteBuffer.wrap(hash)} for a byte array (arrays compare by identity). Thread-safe: answers
 * may arrive from the backends' threads.
 *
 * @param <B> the backend type
 * @param <K> the answers' fingerprint type
 */
public final class ReadVote<B extends BackendView, K> {
    private final List<B> electorate;
    private final Map<B, K> answers = new LinkedHashMap<>();
    private final Set<B> failed = new HashSet<>();

    public ReadVote(List<B> electorate) {
        if (electorate.isEmpty()) {
            throw new IllegalArgumentException("a vote needs at least one backend");
        }
        this.electorate = List.copyOf(electorate);
    }

    /** Answers that must agree for a majority. */
    public int majority() {
        return majorityOf(electorate.size());
    }

    static int majorityOf(int voters) {
        return voters / 2 + 1;
    }

    public synchronized void answered(B backend, K fingerprint) {
        checkNotCounted(backend);
        answers.put(backend, fingerprint);
    }

    /** The backend gave no answer that can be compared (lost connection, timeout). */
    public synchronized void failed(B backend) {
        checkNotCounted(backend);
        failed.add(backend);
    }

    /** Call once every backend asked so far has answered or failed. */
    public synchronized VoteOutcome<B, K> outcome() {
        Map<K, List<B>> groups = new LinkedHashMap<>();
        List<B> notHeard = new ArrayList<>();
        for (B b : electorate) {
            if (answers.containsKey(b)) {
                groups.computeIfAbsent(answers.get(b), k -> new ArrayList<>()).add(b);
            } else if (!failed.contains(b)) {
                notHeard.add(b);
            }
        }
        Map.Entry<K, List<B>> largest = null;
        for (Map.Entry<K, List<B>> g : groups.entrySet()) {
            if (largest == null || g.getValue().size() > largest.getValue().size()) {
                largest = g;
            }
        }
        int best = largest == null ? 0 : largest.getValue().size();
        if (best >= majority()) {
            List<B> outvoted = new ArrayList<>();
            for (Map.Entry<K, List<B>> g : groups.entrySet()) {
                if (g != largest) {
                    outvoted.addAll(g.getValue());
                }
            }
            return new VoteOutcome.Majority<>(largest.getKey(), List.copyOf(largest.getValue()), List.copyOf(outvoted));
        }
        if (best + notHeard.size() >= majority()) {
            return new VoteOutcome.AskOthers<>(List.copyOf(notHeard));
        }
        return new VoteOutcome.NoMajority<>(noMajorityMessage(groups.values()));
    }

    private String noMajorityMessage(Iterable<List<B>> groups) {
        StringBuilder m = new StringBuilder("no majority among the backends' answers to this read: ")
                .append(majority())
                .append(" of ")
                .append(electorate.size())
                .append(" must agree, but the answers split into ");
        List<String> split = new ArrayList<>();
        for (List<B> g : groups) {
            split.add("(" + g.stream().map(BackendView::name).collect(Collectors.joining(", ")) + ")");
        }
        m.append(split.isEmpty() ? "nothing" : String.join(", ", split));
        if (!failed.isEmpty()) {
            m.append("; no answer from ")
                    .append(electorate.stream()
                            .filter(failed::contains)
                            .map(BackendView::name)
                            .collect(Collectors.joining(", ")));
        }
        return m.append("; retry the read, and check the backends for divergence")
                .toString();
    }

    private void checkNotCounted(B backend) {
        if (!electorate.contains(backend)) {
            throw new IllegalArgumentException("backend " + backend.name() + " is not in this read's electorate");
        }
        if (answers.containsKey(backend) || failed.contains(backend)) {
            throw new IllegalStateException("backend " + backend.name() + " is already counted in this vote");
        }
    }
}
