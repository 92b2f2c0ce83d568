package org.raidb.recovery;

import java.util.Objects;

/**
 * A parameter the controller carries as text plus the name of its database type (json, interval,
 * inet, an enum...): replayed by binding the text with that type.
 */
public record TypedText(String typeName, String text) {
  public TypedText {
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(text, "text");
  }
}
