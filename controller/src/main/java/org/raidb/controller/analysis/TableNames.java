package org.raidb.controller.analysis;

import java.util.Locale;

/**
 * Canonical table names for routing: unqualified, unquoted, lower-case unless quoted. Routing
 * compares these, so "Public"."Orders" and orders must not both be read as the same table unless the
 * database would (PostgreSQL folds unquoted names to lower case).
 */
public final class TableNames {
  private TableNames() {}

  public static String canonical(String name) {
    String n = name.trim();
    int dot = lastDotOutsideQuotes(n);
    if (dot >= 0) {
      n = n.substring(dot + 1);
    }
    if (n.length() >= 2 && (n.charAt(0) == '"' || n.charAt(0) == '`') && n.charAt(n.length() - 1) == n.charAt(0)) {
      return n.substring(1, n.length() - 1);
    }
    return n.toLowerCase(Locale.ROOT);
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
    return schema.equals("pg_catalog") || schema.equals("information_schema")
        || schema.endsWith(".pg_catalog") || schema.endsWith(".information_schema");
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
