/** TPC-W schema, trace recording and replay, benchmark harness. Filled in by the TPC-W issue. */
package org.raidb.tpcw;
