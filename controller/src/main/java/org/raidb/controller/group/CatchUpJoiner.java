package org.raidb.controller.group;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.recovery.Progress;
import org.raidb.controller.vdb.VirtualDatabase;

/**
 * The joiner's side of a catch-up ({@link CatchUpBarrier}): a controller joining a group that has
 * ordered writes without it asks for the donor's backends' contents, keeps every write delivered from
 * its barrier on, loads the dumps into its own backends (each disabled at a checkpoint of its own
 * recovery log, loaded, and enabled again by replay, so its log stays in step), then runs the writes
 * it kept, those of transactions open at the barrier left out (the dumps hold them), and from there on
 * runs the group's writes as every member does. It serves clients only once it has run what it kept.
 */
final class CatchUpJoiner {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(CatchUpJoiner.class);
    /** How long a joiner waits for the donor's dumps (their size sets it; a donor that dies ends it sooner). */
    private static final long DUMPS_MILLIS = TimeUnit.MINUTES.toMillis(30);

    /** What the joiner asks of the member it runs in. */
    interface Member {
        /** Runs a kept write as if just delivered. */
        void run(GroupMessage.Write w);

        /** Counts a kept write the dumps already hold, without running it. */
        void skip(GroupMessage.Write w);

        /** This member's numbering of the group's writes starts at the donor's position at the barrier. */
        void startAt(long position);
    }

    private enum Stage {
        /** Just connected: what is delivered waits until it is known whether the group wrote without it. */
        DECIDING,
        /** A member like the others. */
        LIVE,
        /** Asked; what is delivered before its barrier is in the dumps. */
        BEFORE_BARRIER,
        /** From the barrier on: everything delivered is kept. */
        KEEPING
    }

    private final VirtualDatabase vdb;
    private final GroupChannel channel;
    private final String group;
    private Stage stage = Stage.DECIDING;
    private final List<GroupMessage.Write> kept = new ArrayList<>();
    private String donor;
    private GroupMessage.CatchUpStart start;
    private final Map<Integer, OutputStream> open = new HashMap<>();
    private final Map<Integer, Path> files = new HashMap<>();
    private final Set<Integer> complete = new HashSet<>();
    private String failure;
    /** Whether the failure was the group being busy: the joiner asks again. */
    private boolean retryable;
    /** How many times a joiner asks before it gives up when the group is busy. */
    private static final int ATTEMPTS = 5;

    CatchUpJoiner(VirtualDatabase vdb, GroupChannel channel, String group) {
        this.vdb = vdb;
        this.channel = channel;
        this.group = group;
    }

    /** A delivered write: kept (or passed over) while catching up; false when this member runs it now. */
    synchronized boolean intercepts(GroupMessage.Write w) {
        if (stage == Stage.LIVE) {
            return false;
        }
        if (stage == Stage.KEEPING || stage == Stage.DECIDING) {
            kept.add(w);
        }
        return true;
    }

    /**
     * The group had ordered no write before this member's view: it has had every write since, and runs
     * those delivered while it checked.
     */
    synchronized void noCatchUpNeeded(Member member) {
        kept.forEach(member::run);
        kept.clear();
        stage = Stage.LIVE;
    }

    /** Whether this member is still catching up (or checking whether it must). */
    synchronized boolean joining() {
        return stage != Stage.LIVE;
    }

    /** Its own barrier, delivered. */
    synchronized void asked(GroupMessage.CatchUpAsk ask) {
        if (stage == Stage.BEFORE_BARRIER && ask.joiner().equals(channel.self())) {
            stage = Stage.KEEPING;
            for (String m : channel.members()) {
                if (!m.equals(channel.self())) {
                    donor = m; // the first other member: whom the members chose, unless another joiner is before it
                    break;
                }
            }
        }
    }

    synchronized void started(GroupMessage.CatchUpStart s) {
        if (stage == Stage.KEEPING && s.joiner().equals(channel.self())) {
            start = s;
            donor = s.donor();
        }
    }

    synchronized void chunk(GroupMessage.CatchUpChunk c) {
        if (stage != Stage.KEEPING || start == null || failure != null) {
            return;
        }
        try {
            OutputStream out = open.get(c.dump());
            if (out == null) {
                Path file = files.get(c.dump());
                out = Files.newOutputStream(file);
                open.put(c.dump(), out);
            }
            out.write(c.bytes());
            if (c.last()) {
                out.close();
                open.remove(c.dump());
                complete.add(c.dump());
                notifyAll();
            }
        } catch (IOException e) {
            fail("cannot write the donor's dump here: " + e.getMessage());
        }
    }

    synchronized void aborted(GroupMessage.CatchUpAbort a) {
        if (stage != Stage.LIVE && a.joiner().equals(channel.self())) {
            retryable = a.retry();
            fail(a.reason());
        }
    }

    synchronized void left(List<String> left) {
        if (stage != Stage.LIVE && donor != null && left.contains(donor)) {
            fail("the donor " + donor + " left the group");
        }
    }

    private void fail(String why) {
        if (failure == null) {
            failure = why;
        }
        notifyAll();
    }

    /**
     * Catches this controller up from a member: returns once its backends hold the group's data and it
     * has run the writes delivered meanwhile; fails with why it could not.
     */
    void catchUp(Member member) throws GroupException {
        for (int attempt = 1; ; attempt++) {
            try {
                attempt(member);
                return;
            } catch (RetryableFailure e) {
                if (attempt == ATTEMPTS) {
                    abandon(e.getMessage());
                    throw new GroupException(e.getMessage() + " (asked " + ATTEMPTS + " times)", e);
                }
                log.warn(
                        "controller group {}: {}; asking again ({} of {})",
                        group,
                        e.getMessage(),
                        attempt + 1,
                        ATTEMPTS);
            }
        }
    }

    /** The group was busy: the joiner asks again. */
    private static final class RetryableFailure extends GroupException {
        private static final long serialVersionUID = 1L;

        RetryableFailure(String message) {
            super(message);
        }
    }

    private void attempt(Member member) throws GroupException {
        List<DatabaseBackend> backends = vdb.backends();
        List<String> tableSets = new ArrayList<>(new LinkedHashSet<>(
                backends.stream().map(CatchUpDonor::tableSet).toList()));
        Path dir;
        try {
            dir = Files.createDirectories(vdb.dataDir().resolve("catch-up").resolve(vdb.name()));
        } catch (IOException e) {
            throw new GroupException(
                    "controller group " + group + ": cannot create "
                            + vdb.dataDir().resolve("catch-up").resolve(vdb.name()) + " for the donor's dumps: "
                            + e.getMessage(),
                    e);
        }
        synchronized (this) {
            for (int i = 0; i < tableSets.size(); i++) {
                files.put(i, dir.resolve("received-" + i));
            }
            kept.clear(); // delivered before the barrier: in the dumps
            stage = Stage.BEFORE_BARRIER;
            start = null;
            donor = null;
            complete.clear();
            failure = null;
            retryable = false;
        }
        long began = System.nanoTime();
        try {
            channel.sendAll(new GroupMessage.CatchUpAsk(channel.self(), tableSets));
            GroupMessage.CatchUpStart s = awaitDumps(tableSets.size());
            log.info(
                    "controller group {}: received {} dump(s) from {} (cut at position {}); loading them into {}",
                    group,
                    tableSets.size(),
                    s.donor(),
                    s.position(),
                    backends.stream().map(DatabaseBackend::name).toList());
            for (DatabaseBackend b : backends) {
                int dump = tableSets.indexOf(CatchUpDonor.tableSet(b));
                vdb.dumps().loadTransfer(b, files.get(dump), s.formats().get(dump), Progress.NONE);
            }
            int skipped = runKept(member, s);
            log.info(
                    "controller group {}: caught up from {} in {} ms; {} write(s) delivered meanwhile run here, {} already"
                            + " in the dumps",
                    group,
                    s.donor(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began),
                    kept.size() - skipped,
                    skipped);
            channel.sendAll(new GroupMessage.CaughtUp(channel.self()));
        } catch (RetryableFailure e) {
            throw e;
        } catch (GroupException e) {
            abandon(e.getMessage());
            throw e;
        } catch (SQLException e) {
            abandon(e.getMessage());
            throw new GroupException(
                    "controller group " + group + ": loading the donor's dump into this controller's"
                            + " backends failed: " + e.getMessage() + "; fix the cause and start this controller again",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon("interrupted");
            throw new GroupException("controller group " + group + ": interrupted while catching up", e);
        } catch (Exception e) {
            abandon(e.toString());
            throw new GroupException("controller group " + group + ": catching up failed: " + e, e);
        } finally {
            synchronized (this) {
                kept.clear();
                for (Path f : files.values()) {
                    try {
                        Files.deleteIfExists(f);
                    } catch (IOException ignored) {
                        // a left-over file in the data directory; the next catch-up replaces it
                    }
                }
            }
        }
    }

    private synchronized GroupMessage.CatchUpStart awaitDumps(int count) throws InterruptedException, GroupException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DUMPS_MILLIS);
        while (failure == null && (start == null || complete.size() < count)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                failure = "the donor's dumps did not arrive within " + DUMPS_MILLIS / 60_000 + " min";
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        if (failure != null) {
            String message =
                    "controller group " + group + ": this controller could not catch up with the group: " + failure;
            if (retryable) {
                stage = Stage.DECIDING; // what comes before the next barrier is in its dumps
                throw new RetryableFailure(message);
            }
            throw new GroupException(message + "; start it again");
        }
        return start;
    }

    /**
     * The writes kept since the barrier, in their order: those of transactions open at the barrier are
     * counted and passed over, the rest run. From here on this controller is a member like the others.
     */
    private synchronized int runKept(Member member, GroupMessage.CatchUpStart s) {
        member.startAt(s.position());
        Set<String> inDumps = new HashSet<>(s.openTransactions());
        int skipped = 0;
        for (GroupMessage.Write w : kept) {
            if (inDumps.contains(w.tx())) {
                member.skip(w);
                skipped++;
            } else {
                member.run(w);
            }
        }
        stage = Stage.LIVE;
        return skipped;
    }

    /** The others stop waiting for this member: it will not answer. */
    private void abandon(String why) {
        synchronized (this) {
            stage = Stage.LIVE;
            for (OutputStream out : open.values()) {
                try {
                    out.close();
                } catch (IOException ignored) {
                    // the file is deleted next
                }
            }
            open.clear();
        }
        try {
            channel.sendAll(new GroupMessage.CatchUpAbort(channel.self(), "the joiner gave up: " + why, false));
        } catch (Exception e) {
            log.warn("controller group {}: cannot tell the members this controller gave up: {}", group, e.toString());
        }
    }
}
