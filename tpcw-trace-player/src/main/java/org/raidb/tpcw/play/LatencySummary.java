package org.raidb.tpcw.play;

/** How many, and how long in milliseconds: nearest-rank percentiles and the mean. */
public record LatencySummary(long count, double p50Ms, double p95Ms, double p99Ms, double meanMs) {}
