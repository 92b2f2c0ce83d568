package org.raidb.controller.backup.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The table in {@link TypeKind}, read and written by each dialect. */
class TypeMappingTest {

    private final Dialect postgres = new PostgresDialect();
    private final Dialect mariaDb = new MariaDbDialect();
    private final Dialect h2 = new H2Dialect();

    @Test
    void postgresTypesAsPgjdbcNamesThem() {
        assertThat(postgres.columnType("serial", 10, 0)).contains(ColumnType.of(TypeKind.INTEGER));
        assertThat(postgres.columnType("bigserial", 19, 0)).contains(ColumnType.of(TypeKind.BIGINT));
        assertThat(postgres.columnType("int2", 5, 0)).contains(ColumnType.of(TypeKind.SMALLINT));
        assertThat(postgres.columnType("numeric", 12, 2)).contains(ColumnType.decimal(12, 2));
        assertThat(postgres.columnType("numeric", 0, 0)).contains(ColumnType.of(TypeKind.DECIMAL));
        assertThat(postgres.columnType("numeric", 131089, 0)).contains(ColumnType.of(TypeKind.DECIMAL));
        assertThat(postgres.columnType("varchar", 40, 0)).contains(ColumnType.sized(TypeKind.VARCHAR, 40));
        assertThat(postgres.columnType("varchar", Integer.MAX_VALUE, 0)).contains(ColumnType.of(TypeKind.TEXT));
        assertThat(postgres.columnType("bpchar", 5, 0)).contains(ColumnType.sized(TypeKind.CHAR, 5));
        assertThat(postgres.columnType("timestamptz", 35, 6)).contains(ColumnType.of(TypeKind.TIMESTAMPTZ));
        assertThat(postgres.columnType("uuid", 0, 0)).contains(ColumnType.of(TypeKind.UUID));
        assertThat(postgres.columnType("bytea", 0, 0)).contains(ColumnType.of(TypeKind.BINARY));
        assertThat(postgres.columnType("jsonb", 0, 0)).isEmpty();
        assertThat(postgres.columnType("_int4", 0, 0)).isEmpty();
        assertThat(postgres.columnType("interval", 0, 0)).isEmpty();
    }

    @Test
    void mariaDbTypesAsConnectorJNamesThem() {
        assertThat(mariaDb.columnType("INT", 10, 0)).contains(ColumnType.of(TypeKind.INTEGER));
        assertThat(mariaDb.columnType("INT UNSIGNED", 10, 0)).contains(ColumnType.of(TypeKind.BIGINT));
        assertThat(mariaDb.columnType("BIGINT UNSIGNED", 20, 0)).contains(ColumnType.decimal(20, 0));
        assertThat(mariaDb.columnType("TINYINT", 3, 0)).contains(ColumnType.of(TypeKind.SMALLINT));
        assertThat(mariaDb.columnType("SMALLINT UNSIGNED", 5, 0)).contains(ColumnType.of(TypeKind.INTEGER));
        assertThat(mariaDb.columnType("MEDIUMINT UNSIGNED", 8, 0)).contains(ColumnType.of(TypeKind.INTEGER));
        assertThat(mariaDb.columnType("BOOLEAN", 3, 0)).contains(ColumnType.of(TypeKind.BOOLEAN));
        assertThat(mariaDb.columnType("BIT", 1, 0)).contains(ColumnType.of(TypeKind.BOOLEAN));
        assertThat(mariaDb.columnType("BIT", 8, 0)).isEmpty();
        assertThat(mariaDb.columnType("DECIMAL", 12, 2)).contains(ColumnType.decimal(12, 2));
        assertThat(mariaDb.columnType("MEDIUMTEXT", 0, 0)).contains(ColumnType.of(TypeKind.TEXT));
        assertThat(mariaDb.columnType("VARBINARY", 10, 0)).contains(ColumnType.of(TypeKind.BINARY));
        assertThat(mariaDb.columnType("DATETIME", 26, 0)).contains(ColumnType.of(TypeKind.TIMESTAMP));
        assertThat(mariaDb.columnType("FLOAT", 12, 0)).contains(ColumnType.of(TypeKind.REAL));
        assertThat(mariaDb.columnType("UUID", 0, 0)).contains(ColumnType.of(TypeKind.UUID));
        assertThat(mariaDb.columnType("ENUM", 0, 0)).isEmpty();
        assertThat(mariaDb.columnType("GEOMETRY", 0, 0)).isEmpty();
    }

    @Test
    void h2TypesAsItsMetadataNamesThem() {
        assertThat(h2.columnType("DECFLOAT", 100000, 0)).contains(ColumnType.of(TypeKind.DECIMAL));
        assertThat(h2.columnType("NUMERIC", 12, 2)).contains(ColumnType.decimal(12, 2));
        assertThat(h2.columnType("CHARACTER VARYING", 40, 0)).contains(ColumnType.sized(TypeKind.VARCHAR, 40));
        assertThat(h2.columnType("CHARACTER VARYING", H2Dialect.MAX_VARYING, 0)).contains(ColumnType.of(TypeKind.TEXT));
        assertThat(h2.columnType("CHARACTER LARGE OBJECT", 0, 0)).contains(ColumnType.of(TypeKind.TEXT));
        assertThat(h2.columnType("TIMESTAMP WITH TIME ZONE", 32, 6)).contains(ColumnType.of(TypeKind.TIMESTAMPTZ));
        assertThat(h2.columnType("JSON", 0, 0)).isEmpty();
    }

    @Test
    void everyKindIsWrittenByEveryDialect() {
        Map<TypeKind, String[]> expected = new EnumMap<>(TypeKind.class);
        // kind                      PostgreSQL            MariaDB          H2
        expected.put(TypeKind.SMALLINT, new String[] {"smallint", "SMALLINT", "SMALLINT"});
        expected.put(TypeKind.INTEGER, new String[] {"integer", "INT", "INTEGER"});
        expected.put(TypeKind.BIGINT, new String[] {"bigint", "BIGINT", "BIGINT"});
        expected.put(TypeKind.DECIMAL, new String[] {"numeric", "DECIMAL(65,30)", "DECFLOAT"});
        expected.put(TypeKind.REAL, new String[] {"real", "FLOAT", "REAL"});
        expected.put(TypeKind.DOUBLE, new String[] {"double precision", "DOUBLE", "DOUBLE PRECISION"});
        expected.put(TypeKind.BOOLEAN, new String[] {"boolean", "BOOLEAN", "BOOLEAN"});
        expected.put(TypeKind.CHAR, new String[] {"char(0)", "CHAR(0)", "CHARACTER(0)"});
        expected.put(TypeKind.VARCHAR, new String[] {"varchar(0)", "VARCHAR(0)", "CHARACTER VARYING(0)"});
        expected.put(TypeKind.TEXT, new String[] {"text", "LONGTEXT", "CHARACTER LARGE OBJECT"});
        expected.put(TypeKind.BINARY, new String[] {"bytea", "LONGBLOB", "BINARY LARGE OBJECT"});
        expected.put(TypeKind.DATE, new String[] {"date", "DATE", "DATE"});
        expected.put(TypeKind.TIME, new String[] {"time", "TIME(6)", "TIME(6)"});
        expected.put(TypeKind.TIMESTAMP, new String[] {"timestamp", "DATETIME(6)", "TIMESTAMP(6)"});
        expected.put(TypeKind.TIMESTAMPTZ, new String[] {"timestamptz", "DATETIME(6)", "TIMESTAMP(6) WITH TIME ZONE"});
        expected.put(TypeKind.UUID, new String[] {"uuid", "CHAR(36)", "UUID"});
        assertThat(expected).hasSize(TypeKind.values().length);
        expected.forEach((kind, sql) -> {
            ColumnType type = ColumnType.of(kind);
            assertThat(postgres.typeSql(type)).as("PostgreSQL %s", kind).isEqualTo(sql[0]);
            assertThat(mariaDb.typeSql(type)).as("MariaDB %s", kind).isEqualTo(sql[1]);
            assertThat(h2.typeSql(type)).as("H2 %s", kind).isEqualTo(sql[2]);
        });
    }

    @Test
    void sizesBeyondAProductsLimitsTakeTheNextLargerType() {
        assertThat(postgres.typeSql(ColumnType.decimal(12, 2))).isEqualTo("numeric(12,2)");
        assertThat(mariaDb.typeSql(ColumnType.decimal(12, 2))).isEqualTo("DECIMAL(12,2)");
        assertThat(mariaDb.typeSql(ColumnType.decimal(100, 40))).isEqualTo("DECIMAL(65,30)");
        assertThat(mariaDb.typeSql(ColumnType.sized(TypeKind.CHAR, 300))).isEqualTo("VARCHAR(300)");
        assertThat(mariaDb.typeSql(ColumnType.sized(TypeKind.VARCHAR, 20000))).isEqualTo("LONGTEXT");
        assertThat(h2.typeSql(ColumnType.sized(TypeKind.VARCHAR, 2_000_000))).isEqualTo("CHARACTER LARGE OBJECT");
    }

    @Test
    void roundTripsThroughTheDumpKeepEveryKind() {
        for (TypeKind kind : TypeKind.values()) {
            ColumnType type = switch (kind) {
                case CHAR, VARCHAR -> ColumnType.sized(kind, 40);
                case DECIMAL -> ColumnType.decimal(12, 2);
                default -> ColumnType.of(kind);
            };
            String written = h2.typeSql(type);
            String name = written.replaceAll("\\(.*\\)", "");
            Optional<ColumnType> read = h2.columnType(name, type.size(), type.scale());
            assertThat(read).as("H2 %s written as %s", kind, written).contains(type);
        }
    }
}
