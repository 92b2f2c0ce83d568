package org.raidb.driver.protocol;

/**
 * A value the protocol carries as text with the backend's type name: arrays, json, intervals,
 * money, network types. The receiving side decides how to present it.
 */
public record TypedText(String typeName, String text) {
    @Override
    public String toString() {
        return text;
    }
}
