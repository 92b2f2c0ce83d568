package org.raidb.controller.analysis;

import java.util.Locale;

/**
 * Canonical table names for routing: unqualified, unquoted, lower-case unless quoted, and no longer
 * than the backends keep them ({@link IdentifierLength}). Routing compares these, so "Public"."Orders"
 * and orders must not both be read as the same table unless the database would (PostgreSQL folds
 * unquoted names to lower case).
 */
public final class TableNames {
    private TableNames() {}

    public static String canonical(String name) {
        return canonical(name, IdentifierLength.UNLIMITED);
    }

    /**
     * The canonical name of the table the backends make of {@code name}: cut as they cut it first (the
     * name PostgreSQL keeps has its ASCII letters lower-cased, unless quoted), so that a long name and
     * its truncated spelling are one table.
     */
    public static String canonical(String name, IdentifierLength length) {
        String n = name.trim();
        int dot = lastDotOutsideQuotes(n);
        if (dot >= 0) {
            n = n.substring(dot + 1);
        }
        if (n.length() >= 2 && (n.charAt(0) == '"' || n.charAt(0) == '`') && n.charAt(n.length() - 1) == n.charAt(0)) {
            return length.clip(n.substring(1, n.length() - 1));
        }
        return length.clip(asciiLowerCase(n)).toLowerCase(Locale.ROOT);
    }

    /** PostgreSQL folds only ASCII letters of an unquoted name (in a multi-byte encoding): what it keeps. */
    private static String asciiLowerCase(String n) {
        StringBuilder out = null;
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                if (out == null) {
                    out = new StringBuilder(n);
                }
                out.setCharAt(i, (char) (c + ('a' - 'A')));
            }
        }
        return out == null ? n : out.toString();
    }

    /**
     * A system catalog every backend has (pg_catalog.*, information_schema.*, or an unqualified pg_*
     * name): no backend "holds" it, so it does not count among the tables a statement uses, and a query
     * of the catalogs goes to any backend under partial replication too.
     */
    public static boolean isSystemCatalog(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace("\"", "");
        int dot = n.lastIndexOf('.');
        if (dot < 0) {
            return n.startsWith("pg_");
        }
        String schema = n.substring(0, dot);
        return schema.equals("pg_catalog")
                || schema.equals("information_schema")
                || schema.endsWith(".pg_catalog")
                || schema.endsWith(".information_schema");
    }

    private static int lastDotOutsideQuotes(String n) {
        boolean quoted = false;
        for (int i = n.length() - 1; i >= 0; i--) {
            char c = n.charAt(i);
            if (c == '"' || c == '`') {
                quoted = !quoted;
            } else if (c == '.' && !quoted) {
                return i;
            }
        }
        return -1;
    }
}
