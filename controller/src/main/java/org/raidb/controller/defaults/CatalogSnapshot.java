package org.raidb.controller.defaults;

import java.util.List;
import java.util.Map;

/**
 * What one read of a backend's catalogue found, for the tables it was asked about (or all of them):
 * the tables with volatile columns, keyed by {@link CatalogReader#key}, and the triggers calling
 * non-deterministic built-ins.
 */
record CatalogSnapshot(Map<String, TableColumns> tables, List<VolatileTrigger> triggers) {}
