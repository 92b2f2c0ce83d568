package org.raidb.balancer;

import java.util.Set;

/** Requests as the controller builds them, for the cases the level tests need. */
final class Requests {
    private Requests() {}

    static Request read(String... tables) {
        return Request.autoCommitRead(Set.of(tables));
    }

    /** A read in transaction 7, which has written on {@code transactionBackends}. */
    static Request readAfterWriteIn(Set<String> transactionBackends, String... tables) {
        return new Request(RequestKind.READ, Set.of(tables), Set.of(), false, 7, transactionBackends, true);
    }

    static Request write(String... written) {
        return Request.autoCommitWrite(Set.of(written));
    }

    /** INSERT INTO written SELECT … FROM read. */
    static Request insertSelect(String written, String... read) {
        return new Request(RequestKind.WRITE, Set.of(read), Set.of(written), false, 0, Set.of(), false);
    }

    static Request ddl(String table) {
        return new Request(RequestKind.DDL, Set.of(), Set.of(table), false, 0, Set.of(), false);
    }

    static Request unknown(RequestKind kind) {
        return new Request(kind, Set.of(), Set.of(), true, 0, Set.of(), false);
    }
}
