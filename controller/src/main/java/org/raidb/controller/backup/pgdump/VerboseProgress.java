package org.raidb.controller.backup.pgdump;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.raidb.controller.backup.CopyProgress;

/**
 * Turns the verbose lines of pg_dump or pg_restore into progress. The tools announce when they
 * start a table's data ({@code dumping contents of table "public.items"}); a table is counted done
 * when the next one starts, or when the tool ends.
 */
final class VerboseProgress {

    static final Pattern PG_DUMP_TABLE = Pattern.compile("^pg_dump: dumping contents of table \"(.*)\"$");
    static final Pattern PG_RESTORE_TABLE = Pattern.compile("^pg_restore: processing data for table \"(.*)\"$");

    private final Pattern tableStart;
    private final CopyProgress progress;
    private ToLongFunction<String> unitsOfTable; // null until the step has begun
    private final List<String> finishedBeforeBegin = new ArrayList<>();
    private String current;

    /**
     * For a step that has begun.
     *
     * @param unitsOfTable the units a finished table counts for, given its {@code schema.table} name
     */
    VerboseProgress(Pattern tableStart, ToLongFunction<String> unitsOfTable, CopyProgress progress) {
        this.tableStart = tableStart;
        this.unitsOfTable = unitsOfTable;
        this.progress = progress;
    }

    /** For a step whose total is known only once the tool runs: {@link #begin} reports the tables done before. */
    VerboseProgress(Pattern tableStart, CopyProgress progress) {
        this(tableStart, null, progress);
    }

    /** Begins the step (see {@link CopyProgress#begin}), with the units a finished table counts for. */
    synchronized void begin(String step, String unit, long total, ToLongFunction<String> unitsOfTable) {
        progress.begin(step, unit, total);
        this.unitsOfTable = unitsOfTable;
        for (String table : finishedBeforeBegin) {
            progress.advance(unitsOfTable.applyAsLong(table));
        }
        finishedBeforeBegin.clear();
    }

    /** Called from the tool's stderr reader. */
    synchronized void line(String line) {
        Matcher m = tableStart.matcher(line);
        if (m.matches()) {
            finishCurrent();
            current = m.group(1);
        }
    }

    /** The tool exited successfully: the last table is done too. */
    synchronized void end() {
        finishCurrent();
    }

    private void finishCurrent() {
        if (current == null) {
            return;
        }
        if (unitsOfTable == null) {
            finishedBeforeBegin.add(current);
        } else {
            progress.advance(unitsOfTable.applyAsLong(current));
        }
        current = null;
    }
}
