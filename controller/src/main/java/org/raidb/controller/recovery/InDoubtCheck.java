package org.raidb.controller.recovery;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.raidb.controller.backend.DatabaseBackend;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.driver.protocol.SqlStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step before a backend that replayed writes in doubt joins (its connection broke while it
 * ran them, so it may have applied them and lost only the answer). Its copies of the tables those
 * writes touch are compared with the enabled backends' copies, while new writes wait at the gate so
 * that every backend holds the same log. A replay that applied again a write the backend held, or
 * took as held one it lacked, shows as a difference, and the backend stays out.
 */
final class InDoubtCheck {
    private static final Logger log = LoggerFactory.getLogger(InDoubtCheck.class);
    /** SQLState of a backend whose tables differ after the replay: its data diverged. */
    static final String DIFFERS = SqlStates.DATA_CORRUPTED;

    private InDoubtCheck() {}

    static void verify(DatabaseBackend b, List<DatabaseBackend> backends, LogReplayer replayer) throws SQLException {
        List<Long> positions = replayer.inDoubtReplayed();
        if (positions.isEmpty()) {
            return;
        }
        Map<String, String> mine;
        try (Connection c = b.directConnection(null)) {
            mine = replayer.mustVerifyEveryTable()
                    ? TableChecksum.checksums(c)
                    : TableChecksum.checksums(c, replayer.tablesToVerify());
        }
        Set<String> compared = new TreeSet<>();
        for (DatabaseBackend other : backends) {
            if (other == b || !other.isEnabled()) {
                continue;
            }
            Set<String> tables = mine.keySet().stream()
                    .filter(t -> !compared.contains(t) && other.holdsTable(t))
                    .collect(Collectors.toSet());
            if (tables.isEmpty()) {
                continue;
            }
            Map<String, String> theirs;
            try (Connection c = other.directConnection(null)) {
                theirs = TableChecksum.checksums(c, tables);
            }
            for (String t : tables) {
                if (!Objects.equals(mine.get(t), theirs.get(t))) {
                    throw new SQLException(
                            "backend " + b.name() + " stays disabled: its connection broke while it ran the writes at"
                                    + " log positions " + positions + ", and after replaying them its copy of table "
                                    + t + " differs from "
                                    + other.name() + "'s (rows:checksum " + mine.get(t) + " against " + theirs.get(t)
                                    + "): most likely the server had"
                                    + " committed one of them, which the replay applied again; restore it from a dump (restore "
                                    + b.name()
                                    + " from DUMP)",
                            DIFFERS);
                }
                compared.add(t);
            }
        }
        log.info(
                "backend {}: the writes in doubt at log positions {} leave its tables {} identical to the enabled backends'",
                b.name(),
                positions,
                compared);
    }
}
