package org.raidb.controller.keys;

import java.util.ArrayList;
import java.util.List;
import org.raidb.controller.keys.TableKeys.ForeignKey;
import org.raidb.controller.keys.TableKeys.KeyColumn;
import org.raidb.controller.keys.TableKeys.UniqueIndex;

/** One table's {@link TableKeys} while a {@link KeyReader} reads them, query by query. */
final class TableKeysBuilder {
    final String table;
    final List<KeyColumn> columns = new ArrayList<>();
    final List<UniqueIndex> unique = new ArrayList<>();
    final List<ForeignKey> references = new ArrayList<>();
    final List<ForeignKey> referencedBy = new ArrayList<>();
    boolean triggers;

    TableKeysBuilder(String table) {
        this.table = table;
    }

    /** Records a foreign key on whichever of its two tables is being read. */
    static void add(java.util.Map<String, TableKeysBuilder> found, ForeignKey fk) {
        TableKeysBuilder child = found.get(fk.child());
        if (child != null) {
            child.references.add(fk);
        }
        TableKeysBuilder parent = found.get(fk.parent());
        if (parent != null) {
            parent.referencedBy.add(fk);
        }
    }

    TableKeys build(boolean caseInsensitive) {
        return new TableKeys(table, columns, unique, references, referencedBy, triggers, caseInsensitive);
    }
}
