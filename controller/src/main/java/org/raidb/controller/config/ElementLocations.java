package org.raidb.controller.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.xml.sax.Attributes;
import org.xml.sax.Locator;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Where each element of a configuration file starts, recorded while the file is validated.
 *
 * <p>Jackson binding loses positions, and Xerces reports some errors at an unhelpful place (a dangling
 * {@code <login virtualUser>} is reported at the end of the virtual database); this lets errors point at the
 * element the user must fix.
 */
final class ElementLocations extends DefaultHandler {

    /** One element's start tag; line and column are those of its end, as SAX reports them. */
    record Located(String name, Map<String, String> attributes, int line, int column) {
        String attribute(String name) {
            return attributes.get(name);
        }

        boolean isBefore(int otherLine, int otherColumn) {
            return line < otherLine || (line == otherLine && column <= otherColumn);
        }
    }

    private final List<Located> elements = new ArrayList<>();
    private Locator locator;

    @Override
    public void setDocumentLocator(Locator locator) {
        this.locator = locator;
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes attributes) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < attributes.getLength(); i++) {
            values.put(
                    attributes.getLocalName(i).isEmpty() ? attributes.getQName(i) : attributes.getLocalName(i),
                    attributes.getValue(i));
        }
        String name = localName.isEmpty() ? qName : localName;
        int line = locator == null ? -1 : locator.getLineNumber();
        int column = locator == null ? -1 : locator.getColumnNumber();
        elements.add(new Located(name, Map.copyOf(values), line, column));
    }

    /** Every element, in document order. */
    List<Located> all() {
        return List.copyOf(elements);
    }

    /** Elements named {@code name}, in document order. */
    List<Located> named(String name) {
        return elements.stream().filter(e -> e.name().equals(name)).toList();
    }

    /** The last element named {@code name} starting at or before a position: the one an error there lies inside. */
    Optional<Located> lastBefore(String name, int line, int column) {
        Located found = null;
        for (Located e : elements) {
            if (!e.isBefore(line, column)) {
                break;
            }
            if (e.name().equals(name)) {
                found = e;
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * Elements named {@code name} after {@code start}, up to the next element named {@code until} (the
     * children of a virtual database's last element, say): in document order.
     */
    List<Located> namedAfter(Located start, String name, String until) {
        List<Located> out = new ArrayList<>();
        boolean started = start == null;
        for (Located e : elements) {
            if (e.equals(start)) {
                started = true;
            } else if (started && e.name().equals(until)) {
                break;
            } else if (started && e.name().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * The elements right after {@code start} while their names are among {@code names}: the children of
     * an element whose children have only those names (a backend's logins and tables).
     */
    List<Located> following(Located start, java.util.Set<String> names) {
        List<Located> out = new ArrayList<>();
        int i = elements.indexOf(start);
        for (int j = i + 1;
                i >= 0 && j < elements.size() && names.contains(elements.get(j).name());
                j++) {
            out.add(elements.get(j));
        }
        return out;
    }

    /** The first element named {@code name} with an attribute value, starting after {@code after} (or anywhere). */
    Optional<Located> firstAfter(Located after, String name, String attribute, String value) {
        boolean started = after == null;
        for (Located e : elements) {
            if (e.equals(after)) {
                started = true;
            } else if (started && e.name().equals(name) && value.equals(e.attribute(attribute))) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }
}
