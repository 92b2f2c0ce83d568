package org.raidb.tpcw.populate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.raidb.controller.verification.TableChecksum;
import org.raidb.test.PostgresClusterExtension;
import org.raidb.tpcw.schema.Scale;
import org.raidb.tpcw.support.TpcwTestDatabases;

class PopulateIT {

    @RegisterExtension
    static PostgresClusterExtension pg = PostgresClusterExtension.servers(2).database("tpcw");

    @Test
    void sameSeedGivesIdenticalDatabasesWithTheSpecificationsCardinalities() throws Exception {
        Scale scale = TpcwTestDatabases.SMALL;
        TpcwTestDatabases.populate(pg.server(0), scale, 7);
        TpcwTestDatabases.populate(pg.server(1), scale, 7);

        Map<String, String> first = TpcwTestDatabases.checksums(pg.server(0));
        assertThat(TpcwTestDatabases.checksums(pg.server(1))).isEqualTo(first);
        assertThat(first)
                .containsOnlyKeys(
                        "customer",
                        "address",
                        "orders",
                        "order_line",
                        "cc_xacts",
                        "item",
                        "author",
                        "country",
                        "shopping_cart",
                        "shopping_cart_line");
        try (Connection c = pg.server(0).connect()) {
            assertThat(TableChecksum.rowCount(c, "item")).isEqualTo(100);
            assertThat(TableChecksum.rowCount(c, "author")).isEqualTo(25);
            assertThat(TableChecksum.rowCount(c, "country")).isEqualTo(92);
            assertThat(TableChecksum.rowCount(c, "customer")).isEqualTo(2880);
            assertThat(TableChecksum.rowCount(c, "address")).isEqualTo(5760);
            assertThat(TableChecksum.rowCount(c, "orders")).isEqualTo(2592);
            assertThat(TableChecksum.rowCount(c, "cc_xacts")).isEqualTo(2592);
            assertThat(TableChecksum.rowCount(c, "order_line")).isBetween(2592L * 2, 2592L * 4);
            assertThat(TableChecksum.rowCount(c, "shopping_cart")).isZero();
        }
    }

    @Test
    void anotherSeedGivesOtherRows() throws Exception {
        TpcwTestDatabases.populate(pg.server(0), TpcwTestDatabases.SMALL, 7);
        TpcwTestDatabases.populate(pg.server(1), TpcwTestDatabases.SMALL, 8);

        assertThat(TpcwTestDatabases.checksums(pg.server(1)).get("item"))
                .isNotEqualTo(TpcwTestDatabases.checksums(pg.server(0)).get("item"));
    }
}
