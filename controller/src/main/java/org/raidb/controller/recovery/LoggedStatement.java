package org.raidb.controller.recovery;

import java.util.List;

/** One statement as the recovery log keeps it: the text the backends ran and its parameters (null for none). */
public record LoggedStatement(String sql, List<Object> parameters) {}
