package org.raidb.controller.defaults;

/**
 * A column whose value each backend would compute by itself, differently: its default calls
 * now(), gen_random_uuid() and the like, or MariaDB refreshes it ON UPDATE CURRENT_TIMESTAMP.
 *
 * @param name as the catalogue spells it
 * @param insertDefault the default as the catalogue prints it, when it is volatile; else null
 * @param onUpdate MariaDB's ON UPDATE expression, when there is one; else null
 */
public record VolatileColumn(String name, String insertDefault, String onUpdate) {}
