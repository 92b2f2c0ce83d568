package org.raidb.driver.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.raidb.driver.sql.TokenKind.COMMENT;
import static org.raidb.driver.sql.TokenKind.ESCAPE_CLOSE;
import static org.raidb.driver.sql.TokenKind.ESCAPE_OPEN;
import static org.raidb.driver.sql.TokenKind.NUMBER;
import static org.raidb.driver.sql.TokenKind.OPERATOR;
import static org.raidb.driver.sql.TokenKind.PARAMETER;
import static org.raidb.driver.sql.TokenKind.POSITIONAL_PARAMETER;
import static org.raidb.driver.sql.TokenKind.QUOTED_IDENTIFIER;
import static org.raidb.driver.sql.TokenKind.STRING;
import static org.raidb.driver.sql.TokenKind.WHITESPACE;
import static org.raidb.driver.sql.TokenKind.WORD;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlLexerTest {

    /** Each token as KIND:text, whitespace left out. */
    private static List<String> tokens(String sql, SqlSyntax syntax) {
        List<String> out = new ArrayList<>();
        SqlLexer lexer = new SqlLexer(sql, syntax);
        int expectedStart = 0;
        for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
            assertThat(lexer.start()).as("tokens cover the text without gaps").isEqualTo(expectedStart);
            assertThat(lexer.end()).as("every token advances").isGreaterThan(lexer.start());
            expectedStart = lexer.end();
            if (k != WHITESPACE) {
                out.add(k + ":" + lexer.text());
            }
        }
        assertThat(expectedStart).isEqualTo(sql.length());
        return out;
    }

    private static List<String> pg(String sql) {
        return tokens(sql, SqlSyntax.POSTGRESQL);
    }

    private static List<String> my(String sql) {
        return tokens(sql, SqlSyntax.MYSQL);
    }

    @Test
    void wordsNumbersParametersAndOperators() {
        assertThat(pg("SELECT a_1, $1, ?, 1.5e-3, .5, 0x1F FROM t WHERE x::int >= 2"))
                .containsExactly(
                        "WORD:SELECT",
                        "WORD:a_1",
                        "OPERATOR:,",
                        "POSITIONAL_PARAMETER:$1",
                        "OPERATOR:,",
                        "PARAMETER:?",
                        "OPERATOR:,",
                        "NUMBER:1.5e-3",
                        "OPERATOR:,",
                        "NUMBER:.5",
                        "OPERATOR:,",
                        "NUMBER:0x1F",
                        "WORD:FROM",
                        "WORD:t",
                        "WORD:WHERE",
                        "WORD:x",
                        "OPERATOR:::",
                        "WORD:int",
                        "OPERATOR:>",
                        "OPERATOR:=",
                        "NUMBER:2");
        assertThat(pg("a ?? b ??? c"))
                .as("?? is pgjdbc's escaped operator, not a marker")
                .containsExactly("WORD:a", "OPERATOR:??", "WORD:b", "OPERATOR:??", "PARAMETER:?", "WORD:c");
        assertThat(pg("t.col; x-1"))
                .containsExactly("WORD:t", "OPERATOR:.", "WORD:col", "OPERATOR:;", "WORD:x", "OPERATOR:-", "NUMBER:1");
    }

    @Test
    void namesTakeDollarsDigitsAndAnyNonAsciiCharacter() {
        assertThat(pg("a$b$c größe €x énow")).containsExactly("WORD:a$b$c", "WORD:größe", "WORD:€x", "WORD:énow");
        assertThat(my("$x")).containsExactly("WORD:$x");
        assertThat(pg("$x")).containsExactly("OPERATOR:$", "WORD:x");
    }

    @Test
    void postgresqlStrings() {
        assertThat(pg("'it''s' 'C:\\' x")).containsExactly("STRING:'it''s'", "STRING:'C:\\'", "WORD:x");
        assertThat(pg("E'\\'' e'\\\\' x")).containsExactly("STRING:E'\\''", "STRING:e'\\\\'", "WORD:x");
        assertThat(pg("B'01' X'ff' N'n' U&'\\0041' U&\"a\" x"))
                .containsExactly(
                        "STRING:B'01'",
                        "STRING:X'ff'",
                        "STRING:N'n'",
                        "STRING:U&'\\0041'",
                        "QUOTED_IDENTIFIER:U&\"a\"",
                        "WORD:x");
        assertThat(pg("TIMESTAMP'2024-01-01' ab'x'"))
                .as("other words are no prefix")
                .containsExactly("WORD:TIMESTAMP", "STRING:'2024-01-01'", "WORD:ab", "STRING:'x'");
        assertThat(pg("xE'\\' y"))
                .as("an E ending a name is no prefix")
                .containsExactly("WORD:xE", "STRING:'\\'", "WORD:y");
    }

    @Test
    void dollarQuotes() {
        assertThat(pg("$$ a ' \" -- $$ x")).containsExactly("STRING:$$ a ' \" -- $$", "WORD:x");
        assertThat(pg("$tag$ $$ $ta $tag$ x")).containsExactly("STRING:$tag$ $$ $ta $tag$", "WORD:x");
        assertThat(pg("$a$ $b$ x $b$ $a$")).containsExactly("STRING:$a$ $b$ x $b$ $a$");
        assertThat(pg("$_1$ q $_1$")).containsExactly("STRING:$_1$ q $_1$");
        assertThat(pg("$1$ x"))
                .as("a tag does not start with a digit")
                .containsExactly("POSITIONAL_PARAMETER:$1", "OPERATOR:$", "WORD:x");
        assertThat(pg("$ab x")).containsExactly("OPERATOR:$", "WORD:ab", "WORD:x");
        assertThat(pg("$t$ unterminated $t")).containsExactly("STRING:$t$ unterminated $t");
        assertThat(my("$$ x $$")).as("MySQL has no dollar quotes").containsExactly("WORD:$$", "WORD:x", "WORD:$$");
    }

    @Test
    void quotedIdentifiers() {
        assertThat(pg("\"a\"\"b\" `c`"))
                .containsExactly("QUOTED_IDENTIFIER:\"a\"\"b\"", "OPERATOR:`", "WORD:c", "OPERATOR:`");
        assertThat(my("`a``b` \"s\\\"\"")).containsExactly("QUOTED_IDENTIFIER:`a``b`", "STRING:\"s\\\"\"");
    }

    @Test
    void identifierUnquotesNames() {
        assertThat(identifier("\"a\"\"b\"", SqlSyntax.POSTGRESQL)).isEqualTo("a\"b");
        assertThat(identifier("U&\"x\"", SqlSyntax.POSTGRESQL)).isEqualTo("x");
        assertThat(identifier("`a``b`", SqlSyntax.MYSQL)).isEqualTo("a`b");
        assertThat(identifier("\"s\"", SqlSyntax.MYSQL)).isEqualTo("s");
        assertThat(identifier("\"open", SqlSyntax.POSTGRESQL)).isEqualTo("open");
        assertThat(identifier("Name", SqlSyntax.POSTGRESQL)).isEqualTo("Name");
    }

    private static String identifier(String sql, SqlSyntax syntax) {
        SqlLexer lexer = new SqlLexer(sql, syntax);
        lexer.next();
        return lexer.identifier();
    }

    @Test
    void mysqlStringsEscapeWithBackslashes() {
        assertThat(my("'it\\'s' 'a''b' x")).containsExactly("STRING:'it\\'s'", "STRING:'a''b'", "WORD:x");
        assertThat(my("_utf8mb4'\\'' N'\\'' X'ff' x"))
                .containsExactly("STRING:_utf8mb4'\\''", "STRING:N'\\''", "STRING:X'ff'", "WORD:x");
        assertThat(pg("'it\\'s' x"))
                .as("PostgreSQL's standard strings do not")
                .containsExactly("STRING:'it\\'", "WORD:s", "STRING:' x");
    }

    @Test
    void comments() {
        assertThat(pg("a -- c ? 'x\nb")).containsExactly("WORD:a", "COMMENT:-- c ? 'x", "WORD:b");
        assertThat(pg("a /* x /* nested */ still */ b"))
                .containsExactly("WORD:a", "COMMENT:/* x /* nested */ still */", "WORD:b");
        assertThat(my("a /* x /* not nested */ b */"))
                .containsExactly("WORD:a", "COMMENT:/* x /* not nested */", "WORD:b", "OPERATOR:*", "OPERATOR:/");
        assertThat(my("a # c\nb")).containsExactly("WORD:a", "COMMENT:# c", "WORD:b");
        assertThat(pg("a # b")).containsExactly("WORD:a", "OPERATOR:#", "WORD:b");
        assertThat(my("1--1 -- c\n2 --\t3"))
                .as("MySQL's -- needs a space after it")
                .containsExactly(
                        "NUMBER:1",
                        "OPERATOR:-",
                        "OPERATOR:-",
                        "NUMBER:1",
                        "COMMENT:-- c",
                        "NUMBER:2",
                        "COMMENT:--\t3");
        assertThat(my("--")).containsExactly("COMMENT:--");
        assertThat(pg("a/*/ b */c")).containsExactly("WORD:a", "COMMENT:/*/ b */", "WORD:c");
    }

    @Test
    void mysqlExecutableCommentsAreCode() {
        assertThat(my("SELECT 1 /*!50100 , now() */ /*M!100000 x */"))
                .containsExactly(
                        "WORD:SELECT",
                        "NUMBER:1",
                        "COMMENT:/*!50100",
                        "OPERATOR:,",
                        "WORD:now",
                        "OPERATOR:(",
                        "OPERATOR:)",
                        "OPERATOR:*",
                        "OPERATOR:/",
                        "COMMENT:/*M!100000",
                        "WORD:x",
                        "OPERATOR:*",
                        "OPERATOR:/");
        assertThat(pg("/*! x */")).containsExactly("COMMENT:/*! x */");
    }

    @Test
    void jdbcEscapeBraces() {
        assertThat(pg("{fn ucase('}')} {? = call f(?)}"))
                .containsExactly(
                        "ESCAPE_OPEN:{",
                        "WORD:fn",
                        "WORD:ucase",
                        "OPERATOR:(",
                        "STRING:'}'",
                        "OPERATOR:)",
                        "ESCAPE_CLOSE:}",
                        "ESCAPE_OPEN:{",
                        "PARAMETER:?",
                        "OPERATOR:=",
                        "WORD:call",
                        "WORD:f",
                        "OPERATOR:(",
                        "PARAMETER:?",
                        "OPERATOR:)",
                        "ESCAPE_CLOSE:}");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '~',
            value = {
                "'abc|STRING",
                "'abc''|STRING",
                "E'abc\\'|STRING",
                "\"abc|QUOTED_IDENTIFIER",
                "/* abc|COMMENT",
                "/* a /* b */|COMMENT",
                "$$ abc|STRING",
                "$q$ abc $q|STRING",
                "-- abc|COMMENT",
            })
    void unterminatedTokensRunToTheEnd(String sql, TokenKind kind) {
        SqlLexer lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        assertThat(lexer.next()).isEqualTo(kind);
        assertThat(lexer.end()).isEqualTo(sql.length());
        assertThat(lexer.next()).isEqualTo(TokenKind.END);
        assertThat(lexer.next()).as("END stays END").isEqualTo(TokenKind.END);
    }

    @Test
    void unterminatedMysqlTokensRunToTheEnd() {
        assertThat(my("'a\\")).containsExactly("STRING:'a\\");
        assertThat(my("`a")).containsExactly("QUOTED_IDENTIFIER:`a");
        assertThat(my("/* a")).containsExactly("COMMENT:/* a");
        assertThat(my("/*!")).containsExactly("COMMENT:/*!");
        assertThat(my("/*M")).containsExactly("COMMENT:/*M");
    }

    @Test
    void nulAndControlCharactersAreOperators() {
        assertThat(pg("a\u0000b '\u0000' \u0001"))
                .containsExactly("WORD:a", "OPERATOR:\u0000", "WORD:b", "STRING:'\u0000'", "OPERATOR:\u0001");
    }

    @Test
    void surrogatePairsStayInOneName() {
        assertThat(pg("x😀y 😀")).containsExactly("WORD:x😀y", "WORD:😀");
    }

    @Test
    void nextCodeSkipsWhitespaceAndComments() {
        SqlLexer lexer = new SqlLexer("  /* c */ -- d\n a", SqlSyntax.POSTGRESQL);
        assertThat(lexer.nextCode()).isEqualTo(WORD);
        assertThat(lexer.isWord("A")).isTrue();
        assertThat(lexer.nextCode()).isEqualTo(TokenKind.END);
        assertThat(lexer.start()).isEqualTo(lexer.end());
    }

    @Test
    void resetResumesAtATokenBoundary() {
        SqlLexer lexer = new SqlLexer("f(1, 'x')", SqlSyntax.POSTGRESQL);
        lexer.next();
        int after = lexer.end();
        assertThat(lexer.next()).isEqualTo(OPERATOR);
        assertThat(lexer.next()).isEqualTo(NUMBER);
        lexer.reset(after);
        assertThat(lexer.next()).isEqualTo(OPERATOR);
        assertThat(lexer.isSymbol('(')).isTrue();
        lexer.reset(5);
        assertThat(lexer.next()).isEqualTo(STRING);
        assertThatThrownBy(() -> lexer.reset(100)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aLimitedLookAheadReadsNothingPastItsLimit() {
        String sql = "a 'string' /* comment */ -- line\n $t$ x $t$ b";
        for (SqlSyntax syntax : SqlSyntax.values()) {
            SqlLexer lexer = new SqlLexer(sql, syntax);
            for (int limit = 0; limit <= sql.length(); limit++) {
                lexer.reset(0, limit);
                for (TokenKind k = lexer.next(); k != TokenKind.END; k = lexer.next()) {
                    assertThat(lexer.end()).as(syntax + " limit " + limit).isLessThanOrEqualTo(limit);
                }
                assertThat(lexer.end()).isEqualTo(limit);
            }
            lexer.reset(0, 2);
            lexer.reset(0);
            int tokens = 0;
            while (lexer.nextCode() != TokenKind.END) {
                tokens++;
            }
            assertThat(tokens)
                    .as("reset without a limit lexes the whole text again")
                    .isGreaterThan(2);
        }
        SqlLexer lexer = new SqlLexer("$t$ x $t$", SqlSyntax.POSTGRESQL);
        lexer.reset(0, 8);
        assertThat(lexer.next()).isEqualTo(STRING);
        assertThat(lexer.end())
                .as("a closing tag cut by the limit does not close")
                .isEqualTo(8);
        assertThatThrownBy(() -> lexer.reset(3, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> lexer.reset(0, 10)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void symbolsAndWordsAreRecognisedOnlyAsSuch() {
        SqlLexer lexer = new SqlLexer("'(' as", SqlSyntax.POSTGRESQL);
        lexer.next();
        assertThat(lexer.isSymbol('(')).isFalse();
        lexer.nextCode();
        assertThat(lexer.isWord("AS")).isTrue();
        assertThat(lexer.isWord("A")).isFalse();
    }

    @Test
    void emptyText() {
        SqlLexer lexer = new SqlLexer("", SqlSyntax.MYSQL);
        assertThat(lexer.kind()).isEqualTo(TokenKind.END);
        assertThat(lexer.next()).isEqualTo(TokenKind.END);
    }

    @Test
    void codeKinds() {
        assertThat(WORD.isCode()).isTrue();
        assertThat(PARAMETER.isCode()).isTrue();
        assertThat(POSITIONAL_PARAMETER.isCode()).isTrue();
        assertThat(QUOTED_IDENTIFIER.isCode()).isTrue();
        assertThat(ESCAPE_OPEN.isCode() && ESCAPE_CLOSE.isCode()).isTrue();
        assertThat(COMMENT.isCode()).isFalse();
        assertThat(WHITESPACE.isCode()).isFalse();
        assertThat(TokenKind.END.isCode()).isFalse();
    }

    /**
     * Hostile texts of a few megabytes: each lexes in linear time and constant stack. The bound is loose
     * (the machine is shared): a quadratic scan of two million characters would take hours, not seconds.
     */
    @Test
    @Timeout(120)
    void hostileInputIsLexedInLinearTime() {
        int n = 2_000_000;
        for (SqlSyntax syntax : SqlSyntax.values()) {
            for (Supplier<String> hostile : List.<Supplier<String>>of(
                    () -> "/*".repeat(n / 2), // comments nested a million deep
                    () -> "/*" + "*".repeat(n),
                    () -> "$a$" + "$a".repeat(n / 2), // a dollar tag that almost closes everywhere
                    () -> "$" + "x".repeat(n) + " ", // a tag that never ends
                    () -> "$$" + "$".repeat(n),
                    () -> "'" + "''".repeat(n / 2), // doubled quotes, unterminated
                    () -> "E'" + "\\'".repeat(n / 2),
                    () -> "(".repeat(n),
                    () -> "?".repeat(n),
                    () -> "--".repeat(n),
                    () -> "1".repeat(n) + "e+",
                    () -> "a".repeat(n),
                    () -> "\u0000".repeat(n))) {
                String text = hostile.get();
                long started = System.nanoTime();
                SqlLexer lexer = new SqlLexer(text, syntax);
                long tokens = 0;
                while (lexer.next() != TokenKind.END) {
                    tokens++;
                }
                assertThat(tokens).isPositive();
                assertThat(Duration.ofNanos(System.nanoTime() - started))
                        .as(syntax + " " + text.substring(0, 4))
                        .isLessThan(Duration.ofSeconds(10));
            }
        }
    }
}
