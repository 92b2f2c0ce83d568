package org.raidb.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The postmaster of a data directory, seen from outside: its pid from {@code postmaster.pid}, and
 * a crash-like kill.
 */
final class Postmaster {

    private Postmaster() {}

    /** The pid on the first line of DATADIR/postmaster.pid, if the file is there. */
    static OptionalLong pid(Path dataDirectory) {
        try {
            List<String> lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"));
            if (lines.isEmpty() || lines.get(0).isBlank()) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(Long.parseLong(lines.get(0).trim()));
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Whether a process is alive. A zombie counts as dead: a killed postmaster is re-parented to
     * PID 1, which in a container may never reap it, and ProcessHandle.isAlive() would say "alive"
     * for ever.
     */
    static boolean isAlive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // Format: "pid (comm) S ...": the state follows the last ')' since comm may hold spaces.
            int afterComm = stat.lastIndexOf(')');
            char state = stat.charAt(afterComm + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }
    }

    /**
     * Whether a process has left the process table (died and was reaped). PostgreSQL, on restart,
     * refuses a data directory whose postmaster.pid names a process that still exists, even as a
     * zombie; pg_ctl stop also waits on a zombie.
     */
    static boolean isGone(long pid) {
        return !Files.exists(Path.of("/proc", Long.toString(pid)));
    }

    /**
     * A crash of the whole server at one instant, as a power loss would: SIGSTOP to the postmaster
     * (so it forks no more), then to every process it had started (backends, checkpointer, WAL
     * writer...), then SIGKILL to all of them.
     *
     * <p>Why freeze first: killed one after the other, a backend still running when the postmaster
     * dies notices it and sends its client "terminating connection due to unexpected postmaster
     * exit" (SQLState 57P01) instead of the connection simply breaking (08006), which makes tests
     * racy. Killing the children at all matters too: orphaned backends keep the old shared memory
     * attached, and PostgreSQL refuses to start again on the data directory until they have gone.
     *
     * @return every pid that was signalled, postmaster first
     */
    static List<Long> killHard(long postmasterPid) {
        List<Long> pids = stop(postmasterPid);
        signal("KILL", pids);
        return pids;
    }

    /**
     * SIGSTOP to the postmaster (so it forks no more), then to every process it had started: the whole
     * server frozen at one instant, its sockets open.
     *
     * @return every pid that was stopped, postmaster first
     */
    static List<Long> stop(long postmasterPid) {
        List<Long> pids = new ArrayList<>();
        ProcessHandle.of(postmasterPid).ifPresent(postmaster -> {
            signal("STOP", List.of(postmaster.pid()));
            pids.add(postmaster.pid());
            postmaster.descendants().forEach(child -> pids.add(child.pid()));
            signal("STOP", pids.subList(1, pids.size()));
        });
        return pids;
    }

    /** SIGCONT to processes {@link #stop} stopped. */
    static void resume(List<Long> pids) {
        signal("CONT", pids);
    }

    private static void signal(String signal, List<Long> pids) {
        if (pids.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("kill", "-s", signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        try {
            // Exit status ignored: a process may have exited on its own meanwhile.
            new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing " + pids, e);
        }
    }
}
