package org.raidb.tools.bench;

/**
 * One way of serving the benchmark's clients in {@code raidb bench group}: plain pgjdbc to one
 * server, one controller as users run it today (no group), or {@code controllers} controllers in a
 * controller group, each with its own backends.
 *
 * @param controllers 0 for plain pgjdbc
 * @param grouped whether the controllers form a {@code <controllerGroup>} (always, from two on)
 */
record GroupSetup(int controllers, boolean grouped) {
    static final GroupSetup PGJDBC = new GroupSetup(0, false);
    /** The baseline of issue 16's targets: one controller without a group, what users run today. */
    static final GroupSetup ONE_CONTROLLER = new GroupSetup(1, false);

    GroupSetup {
        if (controllers < 0 || (controllers != 1 && grouped != controllers > 1)) {
            throw new IllegalArgumentException(
                    "no setup of " + controllers + " controller(s), " + (grouped ? "grouped" : "not grouped"));
        }
    }

    /** {@code controllers} controllers in a group (a group of one for 1). */
    static GroupSetup group(int controllers) {
        return new GroupSetup(controllers, true);
    }

    boolean isPgjdbc() {
        return controllers == 0;
    }

    String title() {
        if (isPgjdbc()) {
            return "pgjdbc, 1 server";
        }
        if (!grouped) {
            return "1 controller, no group";
        }
        return controllers == 1 ? "1 controller, group of 1" : controllers + " controllers, group";
    }
}
