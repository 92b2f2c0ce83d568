package org.raidb.controller.determinism;

import java.util.List;

/**
 * A prepared statement and the rows of parameters of its JDBC batch, as every backend must run
 * them: see {@link DeterministicRewriter#rewriteBatch}.
 */
public record DeterministicBatch(String sql, List<List<Object>> rows) {}
