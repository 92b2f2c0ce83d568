package org.raidb.controller.analysis;

import java.util.Set;

/**
 * What a write touches, finer than its tables, as far as its text tells: the rows of its target
 * table, the tables it only reads, the sequences it draws from or defines. The scheduler turns this,
 * the backends' catalogue (keys, unique indexes, foreign keys, sequence defaults, triggers) and each
 * execution's parameter values into conflict classes ({@code keys.ConflictClaims}). Cached with the
 * analysis of the text. Statements without a shape (DDL of tables, calls, texts of several
 * statements, SQL the parser cannot read) conflict at table level, or with everything.
 *
 * @param target the rows of the table it writes or locks, or null when it writes none
 * @param tablesRead tables it reads without locking them (subqueries, FROM, USING)
 * @param tablesLocked tables a locking read locks rows of, when it reads several: {@code
 *     lockExclusive} says how
 * @param sequencesCalled sequences whose nextval/setval it calls
 * @param anySequence a nextval/setval whose sequence the text does not name
 * @param sequencesDefined sequences its DDL creates, alters or drops
 */
public record WriteShape(
        TargetRows target,
        Set<String> tablesRead,
        Set<String> tablesLocked,
        boolean lockExclusive,
        Set<String> sequencesCalled,
        boolean anySequence,
        Set<String> sequencesDefined) {

    public WriteShape {
        tablesRead = Set.copyOf(tablesRead);
        tablesLocked = Set.copyOf(tablesLocked);
        sequencesCalled = Set.copyOf(sequencesCalled);
        sequencesDefined = Set.copyOf(sequencesDefined);
    }

    static WriteShape sequenceDdl(String sequence) {
        return new WriteShape(null, Set.of(), Set.of(), false, Set.of(), false, Set.of(sequence));
    }
}
