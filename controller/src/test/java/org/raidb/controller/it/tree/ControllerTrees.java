package org.raidb.controller.it.tree;

import java.util.List;
import org.raidb.controller.it.support.ControllerFixture;
import org.raidb.test.ControllerConfigXml;
import org.raidb.test.PostgresClusterExtension;

/** Trees of controllers for the tests: children over embedded PostgreSQL servers, parents over children. */
final class ControllerTrees {
    private ControllerTrees() {}

    /** A child controller over two of the servers, serving "shop". */
    static ControllerFixture child(PostgresClusterExtension pg, int leaf1, int leaf2, String replication)
            throws Exception {
        return ControllerFixture.start(childConfig(pg, leaf1, leaf2, replication), "shop");
    }

    static ControllerConfigXml childConfig(PostgresClusterExtension pg, int leaf1, int leaf2, String replication) {
        return pg.controllerConfig("shop")
                .backends(List.of(pg.server(leaf1), pg.server(leaf2)))
                .replication(replication);
    }

    /** RAIDb-0 over two leaves: {@code table1} created on the first, {@code table2} on the second. */
    static String partitioned(PostgresClusterExtension pg, int leaf1, String table1, int leaf2, String table2) {
        return "<raidb0><createTable policy=\"all\" tables=\"" + table1 + "\"><backend name=\""
                + pg.server(leaf1).name()
                + "\"/></createTable><createTable policy=\"all\" tables=\"" + table2 + "\"><backend name=\""
                + pg.server(leaf2).name() + "\"/></createTable></raidb0>";
    }

    /**
     * A controller ({@code port} 0: any) serving {@code vdb} over controllers, {@code c1}, {@code c2}, …
     *
     * @param replication the replication element, after what else the virtual database needs
     *     ({@code <determinism …/>})
     */
    static String parentXml(int port, String vdb, String replication, String... childUrls) {
        StringBuilder x = new StringBuilder();
        x.append("<raidb>\n  <controller port=\"").append(port).append("\" adminPort=\"0\" dataDir=\"DATA\"/>\n");
        x.append("  <virtualDatabase name=\"").append(vdb).append("\">\n");
        x.append("    <authentication>\n      <admin user=\"admin\" password=\"adminpw\"/>\n");
        x.append("      <virtualUser name=\"app\" password=\"apppw\"/>\n    </authentication>\n");
        for (int i = 0; i < childUrls.length; i++) {
            x.append("    <backend name=\"c")
                    .append(i + 1)
                    .append("\" url=\"")
                    .append(ControllerConfigXml.escape(childUrls[i]))
                    .append("\" user=\"app\" password=\"apppw\" poolSize=\"8\"/>\n");
        }
        x.append("    ").append(replication).append("\n  </virtualDatabase>\n</raidb>\n");
        return x.toString();
    }
}
