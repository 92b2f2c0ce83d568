package org.raidb.controller.admin;

import java.nio.file.Files;
import java.nio.file.Path;
import org.raidb.controller.Controller;
import org.raidb.controller.config.ConfigLoader;
import org.raidb.embedded.EmbeddedPostgresServer;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/**
 * An in-process controller for admin tests with two virtual databases over the same servers, each with its own
 * admin: "shop" (admin/adminpw, virtual user app/apppw) and "books" (booksadmin/bookspw). Both on free ports.
 */
public final class AdminTestController {
    public static final String SHOP_ADMIN = "admin";
    public static final String SHOP_ADMIN_PASSWORD = "adminpw";
    public static final String BOOKS_ADMIN = "booksadmin";
    public static final String BOOKS_ADMIN_PASSWORD = "bookspw";

    private AdminTestController() {}

    public static Controller start(PostgresClusterExtension pg) throws Exception {
        StringBuilder xml = new StringBuilder(
                "<raidb>\n  <controller host=\"127.0.0.1\" port=\"0\" adminPort=\"0\"" + " dataDir=\"DATA\"/>\n");
        virtualDatabase(xml, pg, "shop", SHOP_ADMIN, SHOP_ADMIN_PASSWORD);
        virtualDatabase(xml, pg, "books", BOOKS_ADMIN, BOOKS_ADMIN_PASSWORD);
        xml.append("</raidb>\n");
        Path dir = Files.createTempDirectory("raidb-admin-it");
        Path file = Files.writeString(
                dir.resolve("raidb.xml"),
                xml.toString().replace("DATA", dir.resolve("data").toString()));
        return Controller.start(ConfigLoader.load(file));
    }

    private static void virtualDatabase(
            StringBuilder xml, PostgresClusterExtension pg, String name, String admin, String password) {
        xml.append("  <virtualDatabase name=\"")
                .append(name)
                .append("\">\n    <authentication>\n")
                .append("      <admin user=\"")
                .append(admin)
                .append("\" password=\"")
                .append(password)
                .append("\"/>\n")
                .append("      <virtualUser name=\"app\" password=\"apppw\"/>\n    </authentication>\n");
        for (EmbeddedPostgresServer s : pg.cluster().servers()) {
            xml.append("    <backend name=\"")
                    .append(s.name())
                    .append("\" url=\"")
                    .append(ControllerConfigXml.escape(s.jdbcUrl()))
                    .append("\" user=\"")
                    .append(ControllerConfigXml.escape(s.user()))
                    .append("\" password=\"")
                    .append(ControllerConfigXml.escape(s.password()))
                    .append("\"/>\n");
        }
        xml.append("    ").append(ControllerConfigXml.DEFAULT_REPLICATION).append("\n  </virtualDatabase>\n");
    }
}
