package org.raidb.controller.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.ValidatorHandler;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.XMLReader;

/**
 * Checks a configuration file against config/raidb.xsd (shipped in the jar) and records where its elements are.
 *
 * <p>The file is read by a SAX parser that refuses any DOCTYPE: a configuration file never needs one, and refusing
 * it is the simplest complete defence against XXE (external entities, external DTDs, entity expansion bombs).
 */
final class SchemaValidator {

    static final String SCHEMA_RESOURCE = "/org/raidb/controller/config/raidb.xsd";

    /**
     * English messages whatever the default locale: SchemaErrorTranslator parses Xerces's English wording. ROOT, not
     * ENGLISH: there is no _en bundle, so ENGLISH would fall back to the default locale's bundle.
     */
    private static final String XERCES_LOCALE = "http://apache.org/xml/properties/locale";

    /** Beyond this many, further errors are usually consequences of the first ones. */
    private static final int MAX_REPORTED_ERRORS = 20;

    private SchemaValidator() {}

    /**
     * Validates {@code xml}; returns where its elements are, or throws a ConfigException listing every error as
     * {@code source:line:column: reason}, one per line.
     */
    static ElementLocations validate(byte[] xml, String source) throws ConfigException {
        ElementLocations locations = new ElementLocations();
        ErrorCollector errors = new ErrorCollector();
        try {
            ValidatorHandler validator = SchemaHolder.SCHEMA.newValidatorHandler();
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            validator.setProperty(XERCES_LOCALE, Locale.ROOT);
            validator.setErrorHandler(errors);
            validator.setContentHandler(locations);

            XMLReader reader = secureReader();
            reader.setProperty(XERCES_LOCALE, Locale.ROOT);
            reader.setErrorHandler(errors);
            reader.setContentHandler(validator);
            reader.parse(new InputSource(new ByteArrayInputStream(xml)));
        } catch (SAXParseException fatal) {
            // Already collected by ErrorCollector.fatalError: malformed XML stops the parse, report what we have.
        } catch (SAXException | IOException e) {
            throw new ConfigException(source + ": cannot read the configuration: " + e.getMessage(), e);
        }
        if (!errors.all.isEmpty()) {
            throw new ConfigException(describe(SchemaErrorTranslator.translate(errors.all, source, locations)));
        }
        return locations;
    }

    private static String describe(List<String> messages) {
        List<String> shown = messages.subList(0, Math.min(messages.size(), MAX_REPORTED_ERRORS));
        String text = String.join("\n", shown);
        if (messages.size() > shown.size()) {
            text += "\n... and " + (messages.size() - shown.size()) + " more errors";
        }
        return text;
    }

    private static XMLReader secureReader() throws SAXException {
        try {
            SAXParserFactory factory = SAXParserFactory.newDefaultInstance();
            factory.setNamespaceAware(true);
            factory.setXIncludeAware(false);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            return factory.newSAXParser().getXMLReader();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK XML parser lacks a required security feature", e);
        }
    }

    /** Keeps every error in order; warnings are not errors; a fatal error (malformed XML) ends the parse. */
    private static final class ErrorCollector implements ErrorHandler {
        final List<SAXParseException> all = new ArrayList<>();

        @Override
        public void warning(SAXParseException e) {}

        @Override
        public void error(SAXParseException e) {
            all.add(e);
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            all.add(e);
            throw e;
        }
    }

    /** The compiled schema, loaded once (Schema is thread-safe) on first use. */
    private static final class SchemaHolder {
        static final Schema SCHEMA = load();

        private static Schema load() {
            URL xsd = SchemaValidator.class.getResource(SCHEMA_RESOURCE);
            if (xsd == null) {
                throw new IllegalStateException(SCHEMA_RESOURCE + " is missing from the classpath (a packaging error)");
            }
            try {
                SchemaFactory factory = SchemaFactory.newDefaultInstance();
                factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
                factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
                factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
                return factory.newSchema(xsd);
            } catch (SAXException e) {
                throw new IllegalStateException(
                        "the configuration schema " + xsd + " is invalid: " + e.getMessage(), e);
            }
        }
    }
}
