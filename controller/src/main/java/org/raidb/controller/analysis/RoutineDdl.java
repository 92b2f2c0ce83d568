package org.raidb.controller.analysis;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.raidb.driver.sql.SqlLexer;
import org.raidb.driver.sql.SqlSyntax;
import org.raidb.driver.sql.TokenKind;

/**
 * Recognises DDL that changes what a function call may do, by its leading words: {@code CREATE [OR
 * REPLACE] [DEFINER = …] [AGGREGATE] FUNCTION|PROCEDURE [IF NOT EXISTS] name}, {@code CREATE
 * AGGREGATE name}, {@code ALTER FUNCTION|PROCEDURE|ROUTINE|AGGREGATE name … [RENAME TO new]}, {@code
 * DROP FUNCTION|… [IF EXISTS] name [(…)] [, …]}, and, for everything at once, {@code
 * CREATE|ALTER|DROP EXTENSION} and PostgreSQL's {@code DO} blocks. A name that cannot be read makes
 * the change {@link RoutineChange#EVERYTHING}.
 *
 * <p>The text is lexed as PostgreSQL does, whatever the backends, but for MariaDB's backtick-quoted
 * names (PostgreSQL reads a backtick as an operator), which are lexed as MariaDB does.
 */
final class RoutineDdl {
    private static final Set<String> ROUTINES = Set.of("FUNCTION", "PROCEDURE", "ROUTINE", "AGGREGATE");
    /** What else a MariaDB {@code CREATE DEFINER = …} may create. */
    private static final Set<String> DEFINED_OTHERS = Set.of("VIEW", "TRIGGER", "EVENT", "SQL", "ALGORITHM");
    /** How many tokens a MariaDB {@code DEFINER = user@host} clause, or an ALTER before RENAME, may take. */
    private static final int MAX_SKIPPED = 200;

    private final SqlLexer lexer;
    private final SqlLexer backtickLexer;
    private int position;

    private RoutineDdl(String sql) {
        this.lexer = new SqlLexer(sql, SqlSyntax.POSTGRESQL);
        this.backtickLexer = new SqlLexer(sql, SqlSyntax.MYSQL);
    }

    /** What the statement changes among functions, or null when it is no such DDL. */
    static RoutineChange of(String statement) {
        return new RoutineDdl(statement).read();
    }

    private RoutineChange read() {
        String verb = next();
        if (verb.equals("DO")) {
            return RoutineChange.EVERYTHING;
        }
        if (verb.equals("CREATE")) {
            return created();
        }
        if (!verb.equals("ALTER") && !verb.equals("DROP")) {
            return null;
        }
        String object = next();
        if (object.equals("EXTENSION")) {
            return RoutineChange.EVERYTHING;
        }
        if (!ROUTINES.contains(object)) {
            return null;
        }
        return verb.equals("ALTER") ? altered() : dropped();
    }

    private RoutineChange created() {
        String word = next();
        if (word.equals("OR")) {
            next(); // REPLACE
            word = next();
        }
        if (word.equals("DEFINER")) {
            for (int i = 0;
                    i < MAX_SKIPPED && !ROUTINES.contains(word) && !DEFINED_OTHERS.contains(word) && !word.isEmpty();
                    i++) {
                word = next();
            }
        }
        if (word.equals("EXTENSION")) {
            return RoutineChange.EVERYTHING;
        }
        if (word.equals("AGGREGATE")) {
            int save = position;
            if (!next().equals("FUNCTION")) {
                position = save; // PostgreSQL's CREATE AGGREGATE name
            }
        } else if (!word.equals("FUNCTION") && !word.equals("PROCEDURE")) {
            return null;
        }
        skipIf("IF", "NOT", "EXISTS");
        return named(name());
    }

    /** After ALTER FUNCTION|PROCEDURE|ROUTINE|AGGREGATE. */
    private RoutineChange altered() {
        Set<String> names = new LinkedHashSet<>();
        String name = name();
        if (name == null) {
            return RoutineChange.EVERYTHING;
        }
        names.add(name);
        for (int i = 0; i < MAX_SKIPPED; i++) {
            String w = next();
            if (w.isEmpty()) {
                break;
            }
            if (w.equals("RENAME") && next().equals("TO")) {
                String renamed = name();
                if (renamed == null) {
                    return RoutineChange.EVERYTHING;
                }
                names.add(renamed);
            }
        }
        return RoutineChange.of(names);
    }

    /** After DROP FUNCTION|PROCEDURE|ROUTINE|AGGREGATE. */
    private RoutineChange dropped() {
        skipIf("IF", "EXISTS");
        Set<String> names = new LinkedHashSet<>();
        while (true) {
            String name = name();
            if (name == null) {
                return RoutineChange.EVERYTHING;
            }
            names.add(name);
            int save = position;
            String after = next();
            if (after.equals("(")) {
                skipArguments();
                save = position;
                after = next();
            }
            if (!after.equals(",")) {
                position = save;
                return RoutineChange.of(names);
            }
        }
    }

    private static RoutineChange named(String name) {
        return name == null ? RoutineChange.EVERYTHING : RoutineChange.of(Set.of(name));
    }

    /** A possibly qualified, possibly quoted name: its last part, lower-case; null if none is there. */
    private String name() {
        String last = null;
        do {
            SqlLexer token = token();
            if (token.kind() == TokenKind.QUOTED_IDENTIFIER) {
                last = token.identifier();
            } else if (token.kind() == TokenKind.WORD || token.kind() == TokenKind.NUMBER) {
                last = token.text();
            } else {
                break;
            }
            position = token.end();
        } while (skipDot());
        return last == null ? null : last.toLowerCase(Locale.ROOT);
    }

    private boolean skipDot() {
        SqlLexer token = token();
        if (token.isSymbol('.')) {
            position = token.end();
            return true;
        }
        return false;
    }

    /** Past the closing parenthesis of an argument list whose opening one was just read. */
    private void skipArguments() {
        int depth = 1;
        while (depth > 0) {
            String token = next();
            if (token.isEmpty()) {
                return;
            }
            depth += token.equals("(") ? 1 : token.equals(")") ? -1 : 0;
        }
    }

    /** Reads the words if they come next (IF NOT EXISTS); otherwise reads nothing. */
    private void skipIf(String... words) {
        int save = position;
        for (String w : words) {
            if (!next().equals(w)) {
                position = save;
                return;
            }
        }
    }

    /**
     * The next token, upper-cased: a word, a quoted name (with its quotes), a literal, or a symbol;
     * comments are skipped. Empty at the end of the text.
     */
    private String next() {
        SqlLexer token = token();
        position = token.end();
        return token.kind() == TokenKind.END ? "" : token.text().toUpperCase(Locale.ROOT);
    }

    /** The lexer on the code token at {@code position}. */
    private SqlLexer token() {
        lexer.reset(position);
        lexer.nextCode();
        if (!lexer.isSymbol('`')) {
            return lexer;
        }
        backtickLexer.reset(lexer.start());
        backtickLexer.next();
        return backtickLexer;
    }
}
