package org.raidb.balancer;

/** What a request does, as far as routing is concerned. */
public enum RequestKind {
    /** Reads only: one backend able to answer it is enough. */
    READ,
    /** Changes data: goes to every enabled backend holding the tables it writes. */
    WRITE,
    /** Changes schema: routed like a write. */
    DDL,
    /** A stored procedure or anything whose effect the controller cannot see: routed like a write. */
    CALL;

    public boolean isWrite() {
        return this != READ;
    }
}
