package org.raidb.controller.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code raidb --version}: the version Maven packaged into the jar, or "development build" from classes. */
public final class RaidbVersion implements IVersionProvider {

    private static final String POM_PROPERTIES = "/META-INF/maven/org.raidb/raidb-controller/pom.properties";

    public static String version() {
        try (InputStream in = RaidbVersion.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties pom = new Properties();
                pom.load(in);
                return pom.getProperty("version", "development build");
            }
        } catch (IOException e) {
            // An unreadable descriptor in our own jar is not worth failing --version for.
        }
        return "development build";
    }

    @Override
    public String[] getVersion() {
        return new String[] {
            "raidb " + version(), "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}
