package org.raidb.controller.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.raidb.controller.determinism.SqlDialect;

/** Table names are known as the backends keep them: PostgreSQL cuts them to 63 bytes. */
class TableNamesTest {
    private static final String LONG = "orders_kept_for_the_auditors_of_the_northern_region_until_twentythirty";

    @Test
    void postgresqlKeepsSixtyThreeBytes() {
        assertThat(LONG).hasSize(70);
        String kept = LONG.substring(0, 63);
        assertThat(TableNames.canonical(LONG, IdentifierLength.POSTGRESQL)).isEqualTo(kept);
        assertThat(TableNames.canonical("public." + LONG.toUpperCase(), IdentifierLength.POSTGRESQL))
                .isEqualTo(kept);
        assertThat(TableNames.canonical(kept, IdentifierLength.POSTGRESQL)).isEqualTo(kept);
        assertThat(TableNames.canonical(LONG, IdentifierLength.UNLIMITED)).isEqualTo(LONG);
    }

    @Test
    void aMultiByteCharacterIsNeverCut() {
        String accents = "é".repeat(40); // 80 bytes: 31 whole characters fit in 63
        assertThat(IdentifierLength.POSTGRESQL.clip(accents)).isEqualTo("é".repeat(31));
        assertThat(IdentifierLength.POSTGRESQL.clip("a" + "€".repeat(30)))
                .as("1 + 20 × 3 bytes")
                .isEqualTo("a" + "€".repeat(20));
        assertThat(IdentifierLength.POSTGRESQL.clip("😀".repeat(20)))
                .as("4-byte characters")
                .isEqualTo("😀".repeat(15));
        assertThat(TableNames.canonical("\"" + "É".repeat(40) + "\"", IdentifierLength.POSTGRESQL))
                .as("quoted: case kept")
                .isEqualTo("É".repeat(31));
    }

    @Test
    void theAnalyserCutsAsItsBackendsDo() {
        SqlAnalyzer postgres = new SqlAnalyzer(List.of(SqlDialect.POSTGRESQL), false, name -> false);
        String kept = LONG.substring(0, 63);
        AnalyzedStatement create = postgres.analyze("CREATE TABLE " + LONG + " (id int)");
        assertThat(create.createdTable()).isEqualTo(kept);
        assertThat(create.schemaChange()).isEqualTo(SchemaChange.create(kept));
        assertThat(postgres.analyze("INSERT INTO " + LONG + " SELECT * FROM " + kept + "x")
                        .tablesWritten())
                .containsExactly(kept);
        assertThat(postgres.analyze("SELECT * FROM " + kept).tablesRead()).containsExactly(kept);

        SqlAnalyzer mariaDb = new SqlAnalyzer(List.of(SqlDialect.MARIADB), false, name -> false);
        assertThat(mariaDb.analyze("SELECT * FROM " + LONG).tablesRead())
                .as("MariaDB refuses, never cuts")
                .containsExactly(LONG);
        SqlAnalyzer mixed = new SqlAnalyzer(List.of(SqlDialect.MARIADB, SqlDialect.POSTGRESQL), false, name -> false);
        assertThat(mixed.analyze("SELECT * FROM " + LONG).tablesRead()).containsExactly(kept);
    }
}
