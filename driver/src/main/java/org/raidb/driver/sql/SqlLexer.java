package org.raidb.driver.sql;

/**
 * The SQL lexer of RAIDb, shared by the driver (parameter markers, JDBC escapes), the controller's
 * analysis (statement splitting, leading keywords) and its determinism rewriter (calls in code). It
 * reads a text the way PostgreSQL or MySQL reads it, so that a keyword inside a string, quoted name
 * or comment is never taken for one.
 *
 * <p>A cursor over the caller's String: {@link #next()} moves to the following token, whose {@link
 * #kind()}, {@link #start()} and {@link #end()} it then answers. There are no token objects and no
 * substrings, so looking through a statement that holds nothing of interest allocates nothing but
 * the lexer. Every character is looked at a bounded number of times, with no regular expression and
 * no recursion, so a text is lexed in linear time and constant stack whatever it holds.
 *
 * <p>Unterminated strings, quoted names and comments run to the end of the text: nothing after an
 * unbalanced quote is code, and the database reports the syntax error itself. The lexer keeps no
 * state between tokens, so lexing may resume at any token boundary ({@link #reset}); for that reason
 * the {@code *}{@code /} closing a MySQL executable comment comes out as the operators {@code *} and
 * {@code /}, as MySQL alone knows it was opened.
 */
public final class SqlLexer {
    private final String sql;
    /** Where the text being lexed ends: the String's length, or a look-ahead's limit. */
    private int length;

    private final boolean mysql;
    private TokenKind kind = TokenKind.END;
    private int start;
    private int end;

    public SqlLexer(String sql, SqlSyntax syntax) {
        this.sql = sql;
        this.length = sql.length();
        this.mysql = syntax == SqlSyntax.MYSQL;
    }

    /** Moves to the next token and returns its kind; {@link TokenKind#END} past the last one. */
    public TokenKind next() {
        start = end;
        kind = start < length ? lex(start) : TokenKind.END;
        if (kind == TokenKind.END) {
            end = length;
        }
        return kind;
    }

    /** Moves to the next token that is code, past whitespace and comments. */
    public TokenKind nextCode() {
        TokenKind k = next();
        while (k == TokenKind.WHITESPACE || k == TokenKind.COMMENT) {
            k = next();
        }
        return k;
    }

    /** Lexing goes on from {@code position}, which should be a token boundary (where a token starts). */
    public void reset(int position) {
        reset(position, sql.length());
    }

    /**
     * Lexing goes on from {@code position} as if the text ended at {@code limit}: a bounded look-ahead,
     * which reads no character past the limit even when a string or comment runs on beyond it.
     */
    public void reset(int position, int limit) {
        if (limit < 0 || limit > sql.length() || position < 0 || position > limit) {
            throw new IndexOutOfBoundsException("position " + position + ", limit " + limit + " in " + sql.length());
        }
        length = limit;
        kind = TokenKind.END;
        start = position;
        end = position;
    }

    public String sql() {
        return sql;
    }

    /** The current token's kind; {@link TokenKind#END} before the first {@link #next()}. */
    public TokenKind kind() {
        return kind;
    }

    public int start() {
        return start;
    }

    /** Where the current token ends (exclusive), which is where the next one starts. */
    public int end() {
        return end;
    }

    public String text() {
        return sql.substring(start, end);
    }

    /** Whether the current token is the keyword or unquoted name {@code word}, in any case. */
    public boolean isWord(String word) {
        return kind == TokenKind.WORD
                && end - start == word.length()
                && sql.regionMatches(true, start, word, 0, word.length());
    }

    /** Whether the current token is the one character {@code symbol} of punctuation, operator or brace. */
    public boolean isSymbol(char symbol) {
        return end - start == 1
                && sql.charAt(start) == symbol
                && (kind == TokenKind.OPERATOR || kind == TokenKind.ESCAPE_OPEN || kind == TokenKind.ESCAPE_CLOSE);
    }

    /**
     * The name a {@link TokenKind#QUOTED_IDENTIFIER} (or a string used as one) stands for: without its
     * quotes, doubled quotes made single. Any other token as written.
     */
    public String identifier() {
        int open = start;
        if ((kind != TokenKind.QUOTED_IDENTIFIER && kind != TokenKind.STRING) || end == start) {
            return text();
        }
        if (!isQuote(sql.charAt(open)) && open + 2 < end && sql.charAt(open + 1) == '&') {
            open += 2; // U&"name"
        }
        char quote = sql.charAt(open);
        if (!isQuote(quote)) {
            return text(); // a prefixed string is no name
        }
        int close = end - open >= 2 && sql.charAt(end - 1) == quote ? end - 1 : end;
        String q = String.valueOf(quote);
        return sql.substring(open + 1, close).replace(q + q, q);
    }

    private static boolean isQuote(char c) {
        return c == '"' || c == '`' || c == '\'';
    }

    /** Lexes the token at {@code i}: sets {@link #end} and returns its kind. */
    private TokenKind lex(int i) {
        char c = sql.charAt(i);
        if (Character.isWhitespace(c)) {
            end = endOfWhitespace(i);
            return TokenKind.WHITESPACE;
        }
        TokenKind special = switch (c) {
            case '\'' -> quoted(i, TokenKind.STRING, mysql);
            case '"' -> quoted(i, mysql ? TokenKind.STRING : TokenKind.QUOTED_IDENTIFIER, mysql);
            case '`' -> mysql ? quoted(i, TokenKind.QUOTED_IDENTIFIER, false) : null;
            case '#' -> mysql ? lineComment(i) : null;
            case '-' -> startsDashDashComment(i) ? lineComment(i) : null;
            case '/' -> i + 1 < length && sql.charAt(i + 1) == '*' ? blockComment(i) : null;
            case '$' -> mysql ? null : dollar(i);
            case '?' -> i + 1 < length && sql.charAt(i + 1) == '?' ? symbol(i, 2) : symbol(i, 1, TokenKind.PARAMETER);
            case ':' -> symbol(i, i + 1 < length && sql.charAt(i + 1) == ':' ? 2 : 1);
            case '{' -> symbol(i, 1, TokenKind.ESCAPE_OPEN);
            case '}' -> symbol(i, 1, TokenKind.ESCAPE_CLOSE);
            case '.' -> i + 1 < length && isDigit(sql.charAt(i + 1)) ? number(i) : null;
            default -> null;
        };
        if (special != null) {
            return special;
        }
        if (isDigit(c)) {
            return number(i);
        }
        return isIdentifierStart(c) ? word(i) : symbol(i, 1);
    }

    private TokenKind quoted(int open, TokenKind kind, boolean backslashEscapes) {
        end = endOfQuoted(open, sql.charAt(open), backslashEscapes);
        return kind;
    }

    private TokenKind lineComment(int i) {
        end = endOfLine(i);
        return TokenKind.COMMENT;
    }

    private TokenKind blockComment(int i) {
        end = endOfBlockComment(i);
        return TokenKind.COMMENT;
    }

    private TokenKind number(int i) {
        end = endOfNumber(i);
        return TokenKind.NUMBER;
    }

    private TokenKind symbol(int i, int size) {
        return symbol(i, size, TokenKind.OPERATOR);
    }

    private TokenKind symbol(int i, int size, TokenKind kind) {
        end = i + size;
        return kind;
    }

    /** A name or keyword, or the prefix of a string ({@code E'…'}, {@code _utf8mb4'…'}) with its string. */
    private TokenKind word(int i) {
        int e = endOfWord(i);
        if (e < length) {
            char next = sql.charAt(e);
            if (next == '\'' && e == i + 1 && "eEbBxXnN".indexOf(sql.charAt(i)) >= 0) {
                char prefix = sql.charAt(i);
                boolean escapes = mysql ? prefix == 'n' || prefix == 'N' : prefix == 'e' || prefix == 'E';
                end = endOfQuoted(e, '\'', escapes);
                return TokenKind.STRING;
            }
            if (next == '\'' && mysql && sql.charAt(i) == '_') {
                end = endOfQuoted(e, '\'', true); // a character set introducer
                return TokenKind.STRING;
            }
            if (next == '&'
                    && !mysql
                    && e == i + 1
                    && (sql.charAt(i) == 'u' || sql.charAt(i) == 'U')
                    && e + 1 < length) {
                char quote = sql.charAt(e + 1);
                if (quote == '\'' || quote == '"') {
                    end = endOfQuoted(e + 1, quote, false);
                    return quote == '"' ? TokenKind.QUOTED_IDENTIFIER : TokenKind.STRING;
                }
            }
        }
        end = e;
        return TokenKind.WORD;
    }

    private int endOfWord(int i) {
        int j = i + 1;
        while (j < length && isIdentifierPart(sql.charAt(j))) {
            j++;
        }
        return j;
    }

    /** Digits, a fraction, an exponent, then any letters glued to them (hexadecimal, a MySQL name). */
    private int endOfNumber(int i) {
        int j = skipDigits(i);
        if (j < length && sql.charAt(j) == '.') {
            j = skipDigits(j + 1);
        }
        if (j < length && (sql.charAt(j) == 'e' || sql.charAt(j) == 'E')) {
            int k = j + 1;
            if (k < length && (sql.charAt(k) == '+' || sql.charAt(k) == '-')) {
                k++;
            }
            if (k < length && isDigit(sql.charAt(k))) {
                j = skipDigits(k);
            }
        }
        while (j < length && isIdentifierPart(sql.charAt(j))) {
            j++;
        }
        return j;
    }

    private int skipDigits(int i) {
        while (i < length && isDigit(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    private int endOfWhitespace(int i) {
        int j = i + 1;
        while (j < length && Character.isWhitespace(sql.charAt(j))) {
            j++;
        }
        return j;
    }

    /** A doubled quote stands for itself; with backslash escapes, a backslash hides the next character. */
    private int endOfQuoted(int open, char quote, boolean backslashEscapes) {
        int i = open + 1;
        while (i < length) {
            char c = sql.charAt(i);
            if (c == '\\' && backslashEscapes) {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < length && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return length;
    }

    /** In MySQL {@code --} starts a comment only before whitespace or a control character: {@code 1--1} is 2. */
    private boolean startsDashDashComment(int i) {
        if (i + 1 >= length || sql.charAt(i + 1) != '-') {
            return false;
        }
        return !mysql || i + 2 >= length || Character.isWhitespace(sql.charAt(i + 2)) || sql.charAt(i + 2) < ' ';
    }

    /** Up to the end of the line; the line break is whitespace. */
    private int endOfLine(int i) {
        int j = i;
        while (j < length && sql.charAt(j) != '\n') {
            j++;
        }
        return j;
    }

    /**
     * PostgreSQL block comments nest; MySQL's end at the first close, and of an executable {@code /*!}
     * one only the marker is comment.
     */
    private int endOfBlockComment(int open) {
        if (mysql) {
            if (open + 2 < length && sql.charAt(open + 2) == '!') {
                return skipDigits(open + 3);
            }
            if (open + 3 < length && sql.charAt(open + 2) == 'M' && sql.charAt(open + 3) == '!') {
                return skipDigits(open + 4);
            }
            for (int i = open + 2; i + 1 < length; i++) {
                if (sql.charAt(i) == '*' && sql.charAt(i + 1) == '/') {
                    return i + 2;
                }
            }
            return length;
        }
        int depth = 1;
        int i = open + 2;
        while (i < length) {
            char c = sql.charAt(i);
            if (c == '*' && i + 1 < length && sql.charAt(i + 1) == '/') {
                if (--depth == 0) {
                    return i + 2;
                }
                i += 2;
            } else if (c == '/' && i + 1 < length && sql.charAt(i + 1) == '*') {
                depth++;
                i += 2;
            } else {
                i++;
            }
        }
        return length;
    }

    /**
     * PostgreSQL: {@code $1}, or a dollar quote {@code $$…$$} / {@code $tag$…$tag$}, or a lone
     * {@code $}. A tag holds no {@code $}, so each {@code $} of the body is compared with the tag over
     * characters no other comparison reads: the search for the closing tag is linear.
     */
    private TokenKind dollar(int open) {
        int i = open + 1;
        if (i < length && isDigit(sql.charAt(i))) {
            end = skipDigits(i);
            return TokenKind.POSITIONAL_PARAMETER;
        }
        if (i < length && isIdentifierStart(sql.charAt(i))) {
            while (i < length && sql.charAt(i) != '$' && isIdentifierPart(sql.charAt(i))) {
                i++;
            }
        }
        if (i >= length || sql.charAt(i) != '$') {
            end = open + 1;
            return TokenKind.OPERATOR;
        }
        int tagLength = i + 1 - open;
        end = length;
        for (int k = i + 1; k < length; k++) {
            if (sql.charAt(k) == '$' && k + tagLength <= length && sql.regionMatches(k, sql, open, tagLength)) {
                end = k + tagLength;
                break;
            }
        }
        return TokenKind.STRING;
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Both families take any non-ASCII character in a name; MySQL also a {@code $}. */
    private boolean isIdentifierStart(char c) {
        if (c < 128) {
            return isAsciiLetter(c) || c == '_' || (c == '$' && mysql);
        }
        return !Character.isWhitespace(c);
    }

    private boolean isIdentifierPart(char c) {
        if (c < 128) {
            return isAsciiLetter(c) || isDigit(c) || c == '_' || c == '$';
        }
        return !Character.isWhitespace(c);
    }
}
