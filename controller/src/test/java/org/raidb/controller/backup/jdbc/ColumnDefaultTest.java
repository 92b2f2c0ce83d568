package org.raidb.controller.backup.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.raidb.controller.backup.jdbc.ColumnDefault.Kind;

class ColumnDefaultTest {

    @Test
    void literalsAsEachProductReportsThem() {
        assertThat(ColumnDefault.parse("'abc'::text")).contains(new ColumnDefault(Kind.STRING, "abc"));
        assertThat(ColumnDefault.parse("'it''s'::character varying")).contains(new ColumnDefault(Kind.STRING, "it's"));
        assertThat(ColumnDefault.parse("'2024-01-01'::date")).contains(new ColumnDefault(Kind.STRING, "2024-01-01"));
        assertThat(ColumnDefault.parse("'-1'::integer")).contains(new ColumnDefault(Kind.STRING, "-1"));
        assertThat(ColumnDefault.parse("'abc'")).contains(new ColumnDefault(Kind.STRING, "abc"));
        assertThat(ColumnDefault.parse("7")).contains(new ColumnDefault(Kind.NUMBER, "7"));
        assertThat(ColumnDefault.parse("0.00")).contains(new ColumnDefault(Kind.NUMBER, "0.00"));
        assertThat(ColumnDefault.parse("1.5e3")).contains(new ColumnDefault(Kind.NUMBER, "1.5e3"));
        assertThat(ColumnDefault.parse("true")).contains(new ColumnDefault(Kind.BOOLEAN, "true"));
        assertThat(ColumnDefault.parse("FALSE")).contains(new ColumnDefault(Kind.BOOLEAN, "false"));
    }

    @Test
    void noDefaultAndExpressionsGiveNothing() {
        assertThat(ColumnDefault.parse(null)).isEmpty();
        assertThat(ColumnDefault.parse("NULL")).isEmpty();
        assertThat(ColumnDefault.parse("NULL::character varying")).isEmpty();
        assertThat(ColumnDefault.isExpression("NULL")).isFalse();
        for (String expression : new String[] {
            "now()",
            "current_timestamp()",
            "nextval('s'::regclass)",
            "'a'::text || 'b'::text",
            "CURRENT_TIMESTAMP",
            "uuid()"
        }) {
            assertThat(ColumnDefault.parse(expression)).as(expression).isEmpty();
            assertThat(ColumnDefault.isExpression(expression)).as(expression).isTrue();
        }
    }

    @Test
    void booleanDefaultsAreWrittenAsBooleansWhateverTheSourceSaid() {
        Dialect postgres = new PostgresDialect();
        ColumnType bool = ColumnType.of(TypeKind.BOOLEAN);
        assertThat(postgres.literal(ColumnDefault.parse("1").orElseThrow(), bool))
                .isEqualTo("TRUE");
        assertThat(postgres.literal(ColumnDefault.parse("0").orElseThrow(), bool))
                .isEqualTo("FALSE");
        assertThat(postgres.literal(ColumnDefault.parse("true").orElseThrow(), bool))
                .isEqualTo("TRUE");
    }

    @Test
    void stringsAreQuotedForTheTarget() {
        ColumnDefault value = new ColumnDefault(Kind.STRING, "it's a\\b");
        ColumnType text = ColumnType.of(TypeKind.TEXT);
        assertThat(new PostgresDialect().literal(value, text)).isEqualTo("'it''s a\\b'");
        assertThat(new MariaDbDialect().literal(value, text)).isEqualTo("'it''s a\\\\b'");
    }
}
