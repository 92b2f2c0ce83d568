package org.raidb.controller.group;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.SAXParserFactory;
import org.raidb.controller.config.GroupConfig;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * A controller group's JGroups stack file: one shipped with RAIDb ({@code tcp-loopback.xml},
 * {@code udp.xml}) or the user's own, with {@code ${raidb.group.*}} filled in from
 * {@code <controllerGroup>}. A file that does not parse is refused with its name and line, before
 * JGroups reads it.
 */
final class GroupStack {
    private static final String SHIPPED = "/org/raidb/controller/group/";

    private GroupStack() {}

    /**
     * The stack's XML, ready for JGroups. A bindPort of 0 becomes a port the OS picks now: JGroups
     * itself refuses 0 beside a fixed member list, as the others could not know the port.
     */
    static byte[] load(GroupConfig g) throws GroupException {
        byte[] raw;
        String source;
        try (InputStream shipped = GroupStack.class.getResourceAsStream(SHIPPED + g.stack())) {
            if (shipped != null && !g.stack().contains("/")) {
                raw = shipped.readAllBytes();
                source = g.stack() + " (shipped)";
            } else {
                Path file = Path.of(g.stack());
                raw = Files.readAllBytes(file);
                source = file.toAbsolutePath().toString();
            }
        } catch (NoSuchFileException e) {
            throw new GroupException("controller group " + g.name() + ": stack file " + g.stack()
                    + " not found (working directory " + Path.of("").toAbsolutePath()
                    + "); name tcp-loopback.xml or udp.xml, or the path of a JGroups stack file");
        } catch (IOException e) {
            throw new GroupException(
                    "controller group " + g.name() + ": cannot read stack file " + g.stack() + ": " + e);
        }
        checkWellFormed(raw, source);
        String text = new String(raw, StandardCharsets.UTF_8);
        Map<String, String> values = Map.of(
                "raidb.group.bind_addr",
                g.bindAddress(),
                "raidb.group.bind_port",
                Integer.toString(g.bindPort() != 0 ? g.bindPort() : freePort(g)),
                "raidb.group.members",
                members(g),
                "raidb.group.join_timeout",
                g.joinTimeoutMillis() + "ms",
                "raidb.group.mcast_addr",
                "239.8.8.9",
                "raidb.group.mcast_port",
                "45589");
        for (Map.Entry<String, String> v : values.entrySet()) {
            text = text.replace("${" + v.getKey() + "}", v.getValue());
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static int freePort(GroupConfig g) throws GroupException {
        try (java.net.ServerSocket probe =
                new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(g.bindAddress()))) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new GroupException("controller group " + g.name() + ": cannot bind " + g.bindAddress() + ": " + e);
        }
    }

    /** TCPPING's form: host[port],host[port]; this controller itself when the list is empty. */
    private static String members(GroupConfig g) {
        if (g.members().isEmpty()) {
            return g.bindAddress() + "[" + g.bindPort() + "]";
        }
        StringBuilder b = new StringBuilder();
        for (String m : g.members()) {
            int colon = m.lastIndexOf(':');
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(m, 0, colon).append('[').append(m.substring(colon + 1)).append(']');
        }
        return b.toString();
    }

    private static void checkWellFormed(byte[] xml, String source) throws GroupException {
        try {
            SAXParserFactory f = SAXParserFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.newSAXParser().parse(new ByteArrayInputStream(xml), new DefaultHandler());
        } catch (SAXParseException e) {
            throw new GroupException(source + ":" + e.getLineNumber() + ":" + e.getColumnNumber()
                    + ": the JGroups stack file does not parse: " + e.getMessage());
        } catch (Exception e) {
            throw new GroupException(source + ": the JGroups stack file cannot be read: " + e);
        }
    }
}
