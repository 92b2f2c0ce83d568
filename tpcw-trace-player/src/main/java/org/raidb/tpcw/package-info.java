/**
 * TPC-W for RAIDb: schema and populate ({@code schema}, {@code populate}), the fourteen interactions
 * and three mixes ({@code interactions}), recording and the trace file ({@code trace}), the
 * multithreaded trace player ({@code play}), reports ({@code report}), the benchmark harness
 * ({@code bench}) and the {@code tpcw} command line ({@code cli}).
 */
package org.raidb.tpcw;
