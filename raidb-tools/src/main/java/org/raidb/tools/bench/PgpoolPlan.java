package org.raidb.tools.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether this run measures pgpool-II, and the line the report prints about it: its version when
 * measured, else why it was skipped.
 *
 * @param binary the pgpool binary to start, empty when skipped
 */
record PgpoolPlan(Optional<Path> binary, String description) {

    static PgpoolPlan decide(OverheadCommand.PgpoolChoice choice, int backends) {
        return decide(choice, backends, Pgpool.binary());
    }

    static PgpoolPlan decide(OverheadCommand.PgpoolChoice choice, int backends, Optional<Path> installed) {
        if (choice == OverheadCommand.PgpoolChoice.OFF) {
            return skipped("skipped (--pgpool off)");
        }
        if (installed.isEmpty()) {
            if (choice == OverheadCommand.PgpoolChoice.ON) {
                throw new IllegalStateException(
                        "--pgpool on, but no pgpool binary on the PATH nor in /usr/sbin, /usr/local/sbin");
            }
            return skipped("skipped, not installed (no pgpool binary on the PATH nor in /usr/sbin, /usr/local/sbin; "
                    + "on Debian: apt-get install pgpool2)");
        }
        String version;
        try {
            version = Pgpool.version(installed.get());
        } catch (IOException e) {
            if (choice == OverheadCommand.PgpoolChoice.ON) {
                throw new IllegalStateException("--pgpool on, but " + e.getMessage(), e);
            }
            return skipped("skipped, " + installed.get() + " does not run: " + e.getMessage());
        }
        return new PgpoolPlan(
                installed,
                version + " (" + installed.get() + "), native replication with load balance over the "
                        + (backends == 1 ? "same server" : "same " + backends + " servers")
                        + ", one cached backend connection per child");
    }

    private static PgpoolPlan skipped(String why) {
        return new PgpoolPlan(Optional.empty(), why);
    }
}
