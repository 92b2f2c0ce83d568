package org.raidb.tools.bench;

import java.time.Instant;

/**
 * How a benchmark run was made: recorded with its figures so that they can be compared later.
 *
 * @param backends the servers behind RAIDb (and pgpool-II); pgjdbc uses the first
 * @param recoveryLog "on", "off" or "on and off": the controllers measured
 * @param pgpool pgpool-II's version when measured, else why it was skipped
 * @param dataFileSystem where the servers' data directories were (fsync costs nothing on tmpfs)
 * @param load the machine's load average at the start ({@code /proc/loadavg})
 */
record RunDescription(
        Instant start,
        Machine machine,
        String label,
        int durationSeconds,
        int warmupSeconds,
        int rounds,
        int rows,
        String postgresVersion,
        boolean profiled,
        int backends,
        String recoveryLog,
        String pgpool,
        String dataFileSystem,
        String load) {

    /** One backend, log on, no pgpool: the first benchmark's run. */
    RunDescription(
            Instant start,
            Machine machine,
            String label,
            int durationSeconds,
            int warmupSeconds,
            int rounds,
            int rows,
            String postgresVersion,
            boolean profiled) {
        this(
                start,
                machine,
                label,
                durationSeconds,
                warmupSeconds,
                rounds,
                rows,
                postgresVersion,
                profiled,
                1,
                "on",
                "not asked for",
                "",
                "");
    }
}
