/**
 * The recovery log: durable record of writes and transaction demarcation, checkpoints, backend
 * states and dumps. Empty until the recovery issue fills it; it exists now so that the module
 * layout of DESIGN.md holds from the first build.
 */
package org.raidb.recovery;
