package org.raidb.controller.request;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.raidb.controller.analysis.AnalyzedStatement;
import org.raidb.controller.cache.WriteEffect;
import org.raidb.controller.keys.KeyCatalog;
import org.raidb.controller.keys.TableKeys;

/**
 * What a write may change beyond the tables it names, from the backends' catalogue ({@link KeyCatalog}), for
 * the result cache: the tables its foreign keys' ON DELETE/ON UPDATE actions write (CASCADE, SET NULL, SET
 * DEFAULT, followed from table to table), and everything when a table it writes has a trigger or rule (which
 * may write any table) or is not a table the catalogue knows (a view: its base tables are not named). And the
 * reads the cache may hold: those of tables the catalogue knows, since a view's rows change with tables the
 * read does not name.
 */
final class CatalogWriteEffects {
    private CatalogWriteEffects() {}

    static WriteEffect of(AnalyzedStatement a, String text, KeyCatalog keys) {
        WriteEffect e = WriteEffect.of(a, text);
        if (e.everything() || (e.tables().isEmpty() && e.updatedTable() == null)) {
            return e;
        }
        Set<String> written = new LinkedHashSet<>(e.tables());
        if (e.updatedTable() != null) {
            written.add(e.updatedTable());
        }
        Set<String> reached = new LinkedHashSet<>(written);
        Deque<String> next = new ArrayDeque<>(written);
        while (!next.isEmpty()) {
            String t = next.poll();
            if (t.equals(e.temporaryTable()) || (a != null && a.createdTable() != null)) {
                continue; // a table this statement creates: not in the catalogue yet, and nothing cached reads it
            }
            TableKeys k = keys.table(t, null);
            if (k == null || k.triggers()) {
                return WriteEffect.EVERYTHING;
            }
            for (TableKeys.ForeignKey fk : k.referencedBy()) {
                String child = fk.child().toLowerCase(Locale.ROOT);
                if ((fk.onDelete().writesChild() || fk.onUpdate().writesChild()) && reached.add(child)) {
                    next.add(child);
                }
            }
        }
        if (reached.size() == written.size()) {
            return e;
        }
        Set<String> tables = new LinkedHashSet<>(e.tables());
        reached.stream().filter(t -> !written.contains(t)).forEach(tables::add);
        return new WriteEffect(false, tables, e.updatedTable(), e.updatedColumns(), e.temporaryTable());
    }

    /** Whether a read's result may be cached as far as the catalogue says: it reads only tables it knows. */
    static boolean cacheable(Set<String> tablesRead, KeyCatalog keys) {
        for (String t : tablesRead) {
            int dot = t.lastIndexOf('.');
            String bare = dot >= 0 ? t.substring(dot + 1) : t;
            if (keys.table(bare, null) == null) {
                return false;
            }
        }
        return true;
    }
}
