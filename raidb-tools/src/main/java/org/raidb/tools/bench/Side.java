package org.raidb.tools.bench;

/** Which way the client threads reach PostgreSQL: straight, or through the RAIDb controller. */
enum Side {
  PGJDBC,
  RAIDB;

  String title() {
    return this == PGJDBC ? "pgjdbc" : "RAIDb";
  }
}
