package org.raidb.controller.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.xml.sax.SAXParseException;

/**
 * Turns Xerces messages ({@code cvc-complex-type.4: Attribute 'url' must appear on element 'backend'.}) into
 * sentences a user can act on, each prefixed with {@code FILE:LINE:COLUMN:}.
 *
 * <p>Only the messages our schema can produce are translated; anything else keeps Xerces's wording, which is
 * still correct, just less friendly. Knows the type and identity-constraint names of config/raidb.xsd.
 */
final class SchemaErrorTranslator {

    /** What values of each pattern-restricted type look like, completing "must ...". */
    private static final Map<String, String> PATTERN_DESCRIPTIONS = Map.of(
            "nameType",
                    "start with a letter or '_', contain only letters, digits, '_', '-' and '.', and have at most 64"
                            + " characters",
            "jdbcUrlType",
                    "be a JDBC URL without spaces starting with 'jdbc:' (for example jdbc:postgresql://host:5432/db)",
            "readPolicyType", "be roundRobin, weightedRoundRobin, leastPending or a fully-qualified class name",
            "purgeAfterType", "be off or an age: a number followed by s, m, h or d (for example 90m, 24h, 7d)",
            "ageType", "be a number followed by s, m, h or d (for example 90m, 1h, 7d)",
            "tableNameType",
                    "be a table name: a letter or '_', then letters, digits, '_' or '$' (no schema, no quotes)",
            "tablePatternType",
                    "be a table name pattern: letters, digits, '_', '$', '*' (any run of characters) and '?'"
                            + " (one character)");

    private static final Pattern CVC = Pattern.compile("(cvc-[A-Za-z-]+(?:\\.[0-9a-z]+)*): (.*)", Pattern.DOTALL);

    private static final Pattern ATTRIBUTE_VALUE = Pattern.compile(
            "The value '(.*)' of attribute '(.+?)' on element '(.+?)' is not valid with respect to its type, '(.+?)'\\.",
            Pattern.DOTALL);
    private static final Pattern ENUMERATION = Pattern.compile(
            "Value '(.*)' is not facet-valid with respect to enumeration '\\[(.*)\\]'.*", Pattern.DOTALL);
    private static final Pattern FACET = Pattern.compile(
            "Value '(.*)' (?:with length = '\\d+' )?is not facet-valid with respect to (\\w+) '(.*)' for type '(.+?)'\\.",
            Pattern.DOTALL);
    private static final Pattern DATATYPE =
            Pattern.compile("'(.*)' is not a valid value for '(.+?)'\\.", Pattern.DOTALL);
    private static final Pattern UNEXPECTED_ELEMENT = Pattern.compile(
            "Invalid content was found starting with element '(.+?)'\\. One of '\\{(.*)\\}' is expected\\.");
    private static final Pattern INCOMPLETE_ELEMENT =
            Pattern.compile("The content of element '(.+?)' is not complete\\. One of '\\{(.*)\\}' is expected\\.");
    private static final Pattern EXTRA_ELEMENT = Pattern.compile(
            "Invalid content was found starting with element '(.+?)'\\. No child element is expected at this point\\.");
    private static final Pattern UNKNOWN_ATTRIBUTE =
            Pattern.compile("Attribute '(.+?)' is not allowed to appear in element '(.+?)'\\.");
    private static final Pattern MISSING_ATTRIBUTE =
            Pattern.compile("Attribute '(.+?)' must appear on element '(.+?)'\\.");
    private static final Pattern UNKNOWN_ROOT = Pattern.compile("Cannot find the declaration of element '(.+?)'\\.");
    private static final Pattern MUST_BE_EMPTY = Pattern.compile("Element '(.+?)' must have no character or element.*");
    private static final Pattern NO_TEXT = Pattern.compile("Element '(.+?)' cannot have character.*");
    private static final Pattern DUPLICATE = Pattern.compile(
            "Duplicate (?:unique|key) value \\[(.*)\\] declared for identity constraint \"(.+?)\" of element \"(.+?)\"\\.",
            Pattern.DOTALL);
    private static final Pattern DANGLING_REFERENCE = Pattern.compile(
            "Key '(.+?)' with value '(.*)' not found for identity constraint of element '(.+?)'\\.", Pattern.DOTALL);

    private final String source;
    private final ElementLocations locations;

    private SchemaErrorTranslator(String source, ElementLocations locations) {
        this.source = source;
        this.locations = locations;
    }

    /** One message per problem, in file order; a facet error and its "attribute is invalid" echo become one. */
    static List<String> translate(List<SAXParseException> errors, String source, ElementLocations locations) {
        SchemaErrorTranslator translator = new SchemaErrorTranslator(source, locations);
        List<String> messages = new ArrayList<>();
        for (int i = 0; i < errors.size(); i++) {
            SAXParseException error = errors.get(i);
            SAXParseException next = i + 1 < errors.size() ? errors.get(i + 1) : null;
            Matcher attributeEcho = next == null ? null : attributeEcho(error, next);
            if (attributeEcho != null) {
                messages.add(translator.invalidAttribute(error, attributeEcho));
                i++;
            } else {
                messages.add(translator.translate(error));
            }
        }
        return messages;
    }

    /** Xerces reports a bad attribute value twice: the facet that failed, then cvc-attribute.3 naming the attribute. */
    private static Matcher attributeEcho(SAXParseException facetError, SAXParseException next) {
        if (next.getLineNumber() != facetError.getLineNumber()
                || next.getColumnNumber() != facetError.getColumnNumber()) {
            return null;
        }
        Matcher cvc = CVC.matcher(String.valueOf(next.getMessage()));
        if (!cvc.matches() || !cvc.group(1).equals("cvc-attribute.3")) {
            return null;
        }
        Matcher attribute = ATTRIBUTE_VALUE.matcher(cvc.group(2));
        return attribute.matches() ? attribute : null;
    }

    private String invalidAttribute(SAXParseException facetError, Matcher attribute) {
        String value = attribute.group(1);
        String name = attribute.group(2);
        String element = attribute.group(3);
        return at(facetError)
                .describe("<" + element + "> attribute '" + name + "' must " + requirement(facetError) + ", not '"
                        + value + "'");
    }

    /** What the failed facet requires, completing "must ..."; falls back to "be valid (Xerces's words)". */
    private static String requirement(SAXParseException facetError) {
        Matcher cvc = CVC.matcher(String.valueOf(facetError.getMessage()));
        if (!cvc.matches()) {
            return "be valid (" + facetError.getMessage() + ")";
        }
        String detail = cvc.group(2);
        Matcher m = ENUMERATION.matcher(detail);
        if (m.matches()) {
            return "be one of " + m.group(2);
        }
        m = FACET.matcher(detail);
        if (m.matches()) {
            String limit = m.group(3);
            String type = m.group(4);
            return switch (m.group(2)) {
                case "minInclusive" -> "be at least " + limit;
                case "maxInclusive" -> "be at most " + limit;
                case "minLength" -> limit.equals("1") ? "not be empty" : "be at least " + limit + " characters long";
                case "pattern" -> PATTERN_DESCRIPTIONS.getOrDefault(type, "match the pattern " + limit);
                default -> "respect " + m.group(2) + " " + limit;
            };
        }
        m = DATATYPE.matcher(detail);
        if (m.matches()) {
            String type = m.group(2);
            return type.equals("integer") || type.equals("int") ? "be a whole number" : "be a valid " + type;
        }
        return "be valid (" + detail + ")";
    }

    private String translate(SAXParseException error) {
        String raw = String.valueOf(error.getMessage());
        Matcher cvc = CVC.matcher(raw);
        if (!cvc.matches()) {
            return at(error).describe(wellFormednessProblem(raw));
        }
        String detail = cvc.group(2);
        Matcher m = UNEXPECTED_ELEMENT.matcher(detail);
        if (m.matches()) {
            String expected = elementList(m.group(2));
            String hint = m.group(2).trim().equals("backend") ? " (a virtual database needs at least one backend)" : "";
            return at(error).describe("unexpected element <" + m.group(1) + ">: expected " + expected + " here" + hint);
        }
        m = INCOMPLETE_ELEMENT.matcher(detail);
        if (m.matches()) {
            return at(error)
                    .describe("<" + m.group(1) + "> is incomplete: expected " + elementList(m.group(2))
                            + " before its end");
        }
        m = EXTRA_ELEMENT.matcher(detail);
        if (m.matches()) {
            return at(error).describe("unexpected element <" + m.group(1) + ">: no more elements are allowed here");
        }
        m = UNKNOWN_ATTRIBUTE.matcher(detail);
        if (m.matches()) {
            return at(error).describe("<" + m.group(2) + "> has no attribute '" + m.group(1) + "' (misspelled?)");
        }
        m = MISSING_ATTRIBUTE.matcher(detail);
        if (m.matches()) {
            return at(error).describe("<" + m.group(2) + "> is missing the required attribute '" + m.group(1) + "'");
        }
        m = UNKNOWN_ROOT.matcher(detail);
        if (m.matches()) {
            return at(error).describe("the root element must be <raidb>, not <" + m.group(1) + ">");
        }
        m = MUST_BE_EMPTY.matcher(detail);
        if (m.matches()) {
            return at(error).describe("<" + m.group(1) + "> must be empty: it takes attributes only");
        }
        m = NO_TEXT.matcher(detail);
        if (m.matches()) {
            return at(error).describe("<" + m.group(1) + "> cannot contain text, only elements");
        }
        m = DUPLICATE.matcher(detail);
        if (m.matches()) {
            return duplicate(error, m.group(2), m.group(1));
        }
        m = DANGLING_REFERENCE.matcher(detail);
        if (m.matches()) {
            return danglingReference(error, m.group(1), m.group(2));
        }
        m = ATTRIBUTE_VALUE.matcher(detail);
        if (m.matches()) {
            return at(error)
                    .describe("<" + m.group(3) + "> attribute '" + m.group(2) + "' has an invalid value '" + m.group(1)
                            + "'");
        }
        return at(error).describe(detail);
    }

    private String duplicate(SAXParseException error, String constraint, String value) {
        String vdb = enclosing(error, "virtualDatabase");
        String problem = switch (constraint) {
            case "uniqueVirtualDatabaseName" ->
                "virtual database name '" + value + "' is used twice: names must be unique";
            case "uniqueBackendName" -> "backend name '" + value + "' is used twice in virtual database " + vdb;
            case "uniqueBackendUrl" ->
                "backend url '" + value + "' is used by two backends of virtual database " + vdb
                        + ": replicas must be different databases";
            case "virtualUserName" -> "virtual user '" + value + "' is declared twice in virtual database " + vdb;
            case "uniqueBackendTable" ->
                "backend " + enclosing(error, "backend") + " lists table '" + value + "' twice";
            case "uniqueRaidb0Table", "uniqueRaidb2Table", "uniqueRaidb2ecTable" ->
                "table '" + value + "' is declared twice in virtual database " + vdb;
            case "uniqueLoginVirtualUser" ->
                "backend " + enclosing(error, "backend") + " has two <login> elements for virtual user '" + value + "'";
            default -> "duplicate value '" + value + "' (" + constraint + ")";
        };
        return at(error).describe(problem);
    }

    /**
     * A {@code <login virtualUser>} naming no declared virtual user. Xerces notices at the end of the virtual
     * database; the position reported is that of the offending {@code <login>}.
     */
    private String danglingReference(SAXParseException error, String constraint, String value) {
        if (!constraint.equals("loginVirtualUser")) {
            return at(error).describe("'" + value + "' refers to nothing (" + constraint + ")");
        }
        ElementLocations.Located vdb = locations
                .lastBefore("virtualDatabase", error.getLineNumber(), error.getColumnNumber())
                .orElse(null);
        SourcePosition position = locations
                .firstAfter(vdb, "login", "virtualUser", value)
                .map(login -> new SourcePosition(source, login.line(), login.column()))
                .orElse(at(error));
        String vdbName = vdb == null ? "" : " of virtual database '" + vdb.attribute("name") + "'";
        return position.describe("<login virtualUser='" + value + "'> names no virtual user" + vdbName
                + ": declare <virtualUser name=\"" + value + "\"> in <authentication> or fix the name");
    }

    /** The quoted name of the element of that kind around the error, or "" if unknown. */
    private String enclosing(SAXParseException error, String elementName) {
        return locations
                .lastBefore(elementName, error.getLineNumber(), error.getColumnNumber())
                .map(e -> "'" + e.attribute("name") + "'")
                .orElse("");
    }

    private static String wellFormednessProblem(String raw) {
        if (raw.contains("DOCTYPE is disallowed")) {
            return "DOCTYPE declarations are not allowed in a configuration file"
                    + " (DTDs and external entities are disabled for security)";
        }
        if (raw.startsWith("Content is not allowed in prolog")) {
            return "this is not an XML file: it must start with '<?xml' or '<raidb>'";
        }
        if (raw.startsWith("Premature end of file")) {
            return "the file is empty or ends before the XML document is complete";
        }
        return "malformed XML: " + raw;
    }

    /** "{backend, raidb1}" as "<backend> or <raidb1>"; namespace prefixes ("":name) are dropped. */
    private static String elementList(String names) {
        List<String> elements = Arrays.stream(names.split(","))
                .map(n -> n.trim().replaceFirst("^\"[^\"]*\":", ""))
                .map(n -> "<" + n + ">")
                .collect(Collectors.toList());
        if (elements.size() == 1) {
            return elements.get(0);
        }
        return String.join(", ", elements.subList(0, elements.size() - 1)) + " or " + elements.get(elements.size() - 1);
    }

    private SourcePosition at(SAXParseException error) {
        return new SourcePosition(source, error.getLineNumber(), error.getColumnNumber());
    }
}
