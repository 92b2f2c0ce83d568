package org.raidb.controller.group;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this controller has served its group beside other members, kept in its data directory
 * across restarts: {@code <dataDir>/group/<virtual database>.member}.
 *
 * <p>A member that crashed, or stopped while others went on, holds backends that miss what the group
 * wrote since. Started again, it must not serve alone if it fails to find the others in time (a loaded
 * machine, discovery answered late): that would fork the data. The marker tells {@code whenAlone="auto"}
 * to wait. The last member of a group to stop cleanly removes it, since nobody wrote after it.
 */
final class GroupHistory {

    private static final Logger log = LoggerFactory.getLogger(GroupHistory.class);

    private final Path marker;
    private final boolean atStart;
    private volatile boolean known;

    GroupHistory(Path dataDir, String virtualDatabase) {
        this.marker = dataDir.resolve("group").resolve(virtualDatabase + ".member");
        this.known = Files.exists(marker);
        this.atStart = known;
    }

    /**
     * True when, as this controller started, its data directory showed it had served the group beside
     * others and had not left it last.
     */
    boolean servedBesideOthersBeforeStart() {
        return atStart;
    }

    /** A view with other members: from now on a restart of this controller waits for them. */
    void sawOthers(String group) {
        if (known) {
            return;
        }
        try {
            Files.createDirectories(marker.getParent());
            Files.writeString(marker, group + "\n");
            known = true;
        } catch (IOException e) {
            // Not fatal: a restart then starts alone when it finds nobody, as whenAlone="start" would.
            log.warn("controller group {}: cannot write {}: {}", group, marker, e.toString());
        }
    }

    /** A clean stop as the view's only member: the next start may serve alone. */
    void leftLast(String group) {
        try {
            Files.deleteIfExists(marker);
            known = false;
        } catch (IOException e) {
            log.warn("controller group {}: cannot remove {}: {}", group, marker, e.toString());
        }
    }
}
