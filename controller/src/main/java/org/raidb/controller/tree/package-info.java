/**
 * Trees of controllers (the RAIDb paper's vertical scalability, section 4.1): a controller's virtual
 * database used as another controller's backend through the RAIDb driver. What travels between them
 * to refuse a cycle, and what a child controller cannot do as a backend.
 */
package org.raidb.controller.tree;
