package org.raidb.controller.recovery;

import java.util.ArrayList;
import java.util.List;

/**
 * Parameter values between the wire protocol's types and the recovery log's. The two modules do not
 * depend on each other, so each has its own SQL NULL and typed-text records; every other value is a
 * plain Java type both understand.
 */
final class LogValues {
  private LogValues() {}

  static List<Object> toLog(List<Object> parameters) {
    if (parameters == null) {
      return null;
    }
    List<Object> out = new ArrayList<>(parameters.size());
    for (Object v : parameters) {
      if (v instanceof org.raidb.driver.protocol.SqlNull n) {
        out.add(new org.raidb.recovery.SqlNull(n.sqlType()));
      } else if (v instanceof org.raidb.driver.protocol.TypedText t) {
        out.add(new org.raidb.recovery.TypedText(t.typeName(), t.text()));
      } else {
        out.add(v);
      }
    }
    return out;
  }

  static List<Object> fromLog(List<Object> parameters) {
    if (parameters == null) {
      return null;
    }
    List<Object> out = new ArrayList<>(parameters.size());
    for (Object v : parameters) {
      if (v instanceof org.raidb.recovery.SqlNull n) {
        out.add(org.raidb.driver.protocol.SqlNull.of(n.sqlType()));
      } else if (v instanceof org.raidb.recovery.TypedText t) {
        out.add(new org.raidb.driver.protocol.TypedText(t.typeName(), t.text()));
      } else {
        out.add(v);
      }
    }
    return out;
  }
}
