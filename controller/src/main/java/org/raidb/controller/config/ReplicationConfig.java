package org.raidb.controller.config;

/**
 * The RAIDb level element ({@code <raidb1 readPolicy="roundRobin" completion="all"/>}).
 *
 * @param level "raidb1" for now; later issues add raidb0, raidb2, raidb1ec, raidb2ec
 * @param readPolicy a read policy name (roundRobin, weightedRoundRobin, leastPending) or a class name
 * @param completion first, majority or all
 */
public record ReplicationConfig(String level, String readPolicy, String completion) {}
