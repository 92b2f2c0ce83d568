package org.raidb.controller.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.dataformat.xml.XmlFactory;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import javax.xml.stream.XMLInputFactory;

/**
 * Reads a controller configuration file: validates it against config/raidb.xsd, binds it, applies the defaults
 * of {@link ConfigDefaults} and checks what the schema cannot express.
 *
 * <p>Every failure is a {@link ConfigException} whose message reads {@code FILE:LINE:COLUMN: what is wrong}
 * (one line per problem), fit to show to a user as is.
 */
public final class ConfigLoader {

    /** Binding only ever sees validated documents; DTD support is off anyway, as a second line against XXE. */
    private static final XmlMapper MAPPER = XmlMapper.builder(new XmlFactory(secureStaxFactory()))
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES) // the schema and the binding must agree
            .build();

    private ConfigLoader() {}

    /** Loads a configuration file; errors name the file as given. */
    public static RaidbConfig load(Path file) throws ConfigException {
        return load(file, EnvironmentReference.PROCESS);
    }

    /**
     * Loads a configuration file, taking the passwords given as {@code ${NAME}} from {@code environment} (the
     * process's own, but for tests).
     */
    public static RaidbConfig load(Path file, EnvironmentReference environment) throws ConfigException {
        String source = file.toString();
        if (Files.isDirectory(file)) {
            throw new ConfigException(source + ": is a directory, not a configuration file");
        }
        byte[] xml;
        try {
            xml = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(source + ": configuration file not found" + " (working directory: "
                    + Path.of("").toAbsolutePath() + ")");
        } catch (AccessDeniedException e) {
            throw new ConfigException(source + ": cannot read the configuration file: permission denied");
        } catch (IOException e) {
            throw new ConfigException(source + ": cannot read the configuration file: " + e.getMessage(), e);
        }
        return load(xml, source, environment);
    }

    /**
     * Loads configuration text (tests, embedded configurations); errors name {@code sourceName}. The text is parsed
     * as UTF-8, so it must not declare another encoding.
     */
    public static RaidbConfig load(String xml, String sourceName) throws ConfigException {
        return load(xml, sourceName, EnvironmentReference.PROCESS);
    }

    /** As {@link #load(String, String)}, with the passwords given as {@code ${NAME}} taken from {@code environment}. */
    public static RaidbConfig load(String xml, String sourceName, EnvironmentReference environment)
            throws ConfigException {
        return load(xml.getBytes(StandardCharsets.UTF_8), sourceName, environment);
    }

    private static RaidbConfig load(byte[] xml, String source, EnvironmentReference environment)
            throws ConfigException {
        ElementLocations locations = SchemaValidator.validate(xml, source);
        ConfigXml bound = bind(xml, source);
        PasswordReferences.resolve(bound, locations, source, environment);
        RaidbConfig config;
        try {
            config = bound.toConfig();
        } catch (IllegalArgumentException e) {
            // A value the schema lets through but a record refuses (a programmatic configuration gets the same).
            throw new ConfigException(source + ": " + e.getMessage(), e);
        }
        SemanticChecks.check(config, source, locations);
        return config;
    }

    private static ConfigXml bind(byte[] xml, String source) throws ConfigException {
        try {
            return MAPPER.readValue(xml, ConfigXml.class);
        } catch (JsonMappingException e) {
            // The schema accepted what the binding does not know: config/raidb.xsd and ConfigXml disagree.
            JsonLocation at = e.getLocation();
            SourcePosition position = at == null
                    ? new SourcePosition(source, -1, -1)
                    : new SourcePosition(source, at.getLineNr(), at.getColumnNr());
            throw new ConfigException(
                    position.describe("cannot bind the configuration (schema and loader disagree: "
                            + e.getOriginalMessage() + ")"),
                    e);
        } catch (IOException e) {
            throw new ConfigException(source + ": cannot read the configuration: " + e.getMessage(), e);
        }
    }

    private static XMLInputFactory secureStaxFactory() {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        return factory;
    }
}
