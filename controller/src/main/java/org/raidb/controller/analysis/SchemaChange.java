package org.raidb.controller.analysis;

/**
 * What a DDL statement does to the set of tables (views, sequences) a backend holds, once it has
 * succeeded there: partial replication routes by that set, so it must follow CREATE, DROP and RENAME.
 *
 * @param name the object created, dropped or renamed (canonical: unqualified, lower-case unless quoted)
 * @param newName the new name of a RENAME, else null
 * @param ifExists a DROP … IF EXISTS: harmless where the object is missing
 */
public record SchemaChange(Kind kind, String name, String newName, boolean ifExists) {
    public enum Kind {
        CREATE,
        DROP,
        RENAME
    }

    public static SchemaChange create(String name) {
        return new SchemaChange(Kind.CREATE, name, null, false);
    }

    public static SchemaChange drop(String name, boolean ifExists) {
        return new SchemaChange(Kind.DROP, name, null, ifExists);
    }

    public static SchemaChange rename(String name, String newName) {
        return new SchemaChange(Kind.RENAME, name, newName, false);
    }

    /** The change that undoes this one, for a transaction rolled back after its DDL ran. */
    public SchemaChange inverse() {
        return switch (kind) {
            case CREATE -> drop(name, true);
            case DROP -> create(name);
            case RENAME -> rename(newName, name);
        };
    }
}
