package org.raidb.controller.analysis;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.alter.AlterExpression;
import net.sf.jsqlparser.statement.alter.AlterOperation;
import net.sf.jsqlparser.statement.alter.RenameTableStatement;
import net.sf.jsqlparser.statement.alter.sequence.AlterSequence;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.sequence.CreateSequence;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.ForeignKeyIndex;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.create.view.AlterView;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.execute.Execute;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.truncate.Truncate;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.util.TablesNamesFinder;
import org.raidb.controller.determinism.LimitWithoutOrder;
import org.raidb.controller.determinism.NonDeterministicCalls;
import org.raidb.controller.determinism.SqlDialect;
import org.raidb.driver.sql.SqlSyntax;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Classifies SQL and finds the tables it reads and writes, with JSqlParser. Results are cached by SQL
 * text, so a prepared statement is parsed once however often it runs, and by shape (the text with
 * its literals masked, {@link LiteralMask}), so that a statement sent with new literals each time is
 * not parsed each time either ({@link ShapeAnalyses}).
 *
 * <p>A text is first split into its statements as the backends split it ({@link StatementSplitter});
 * a text of several is classified from its statements ({@link MultiStatement}). Transaction
 * demarcation and session settings are recognised by their first keyword before any parsing: they
 * are frequent, trivially recognisable, and several of their spellings (BEGIN, END, ABORT) are
 * PostgreSQL-only.
 *
 * <p>A SELECT calling a function that may write (by {@link FunctionVolatility}) is a write on every
 * backend. That answer is looked up at each execution, from memory, so that function DDL counts at
 * once; everything else comes from the cache.
 */
public final class SqlAnalyzer {
    private static final Logger log = LoggerFactory.getLogger(SqlAnalyzer.class);
    private static final int CACHE_LIMIT = 10_000;
    /**
     * Texts longer than this are analysed each time they come rather than cached, and the cache starts
     * over past {@link #CACHE_CHARS} characters in all: a client sending large distinct texts must not
     * fill the heap with copies of them (a 64 MiB frame times the entry limit).
     */
    static final int MAX_CACHED_TEXT = 8_192;

    private static final long CACHE_CHARS = 8L << 20;
    /** More statements than this in one text are refused rather than parsed one by one. */
    static final int MAX_STATEMENTS = 1_000;

    static final String REFUSED = "this virtual database refuses texts of several statements"
            + " (<determinism multiStatements=\"refuse\"/>): send one statement at a time";
    static final String AMBIGUOUS = "the backends of this virtual database split this text into statements differently"
            + " (their SQL dialects quote, escape or comment differently): send one statement at a time";
    static final String TOO_MANY =
            "more than " + MAX_STATEMENTS + " statements in one text: send them in smaller texts";
    static final String SEVERAL_IN_A_CALL =
            "a call (CallableStatement) must hold exactly one statement: send the" + " others through a Statement";

    private final ConcurrentHashMap<String, Analysis> cache = new ConcurrentHashMap<>();
    /** Analyses of texts that differ only in their literals, parsed once for all of them. */
    private final ShapeAnalyses shapeAnalyses = new ShapeAnalyses(CACHE_LIMIT);

    private final AtomicLong cachedChars = new AtomicLong();
    private final AtomicLong parses = new AtomicLong();
    /** The columns of the queries the result cache met, by text; cleared like {@link #cache}. */
    private final ConcurrentHashMap<String, ReadColumns> columns = new ConcurrentHashMap<>();

    private final UnparsableLog unparsable = new UnparsableLog();
    private final List<SqlDialect> dialects;
    private final boolean refuseMultiStatements;
    private final FunctionVolatility functions;
    private final IdentifierLength identifiers;
    private final ShapeFinder shapes = new ShapeFinder(this::name);
    /** Parsing runs there with a timeout, so that a pathological statement cannot hold a session forever. */
    private final ExecutorService parserThreads;

    /** Lexing as PostgreSQL does, several statements in one text allowed, no catalogue of functions. */
    public SqlAnalyzer() {
        this(List.of(SqlDialect.GENERIC), false, FunctionVolatility.BUILT_INS_ONLY);
    }

    /**
     * @param dialects the dialects of the backends: a text is split into statements as each of them
     *     splits it, and refused when they disagree; table names are cut as they cut them
     * @param refuseMultiStatements refuse every text of several statements ({@code <determinism
     *     multiStatements="refuse"/>})
     * @param functions whether a function a SELECT calls may write
     */
    public SqlAnalyzer(Collection<SqlDialect> dialects, boolean refuseMultiStatements, FunctionVolatility functions) {
        this(dialects, refuseMultiStatements, functions, new ParserThreads("raidb-sql-parser").executor());
    }

    /** @param parserThreads where parses run (the controller's {@link ParserThreads}) */
    public SqlAnalyzer(
            Collection<SqlDialect> dialects,
            boolean refuseMultiStatements,
            FunctionVolatility functions,
            ExecutorService parserThreads) {
        this.parserThreads = parserThreads;
        this.dialects = List.copyOf(new LinkedHashSet<>(dialects.isEmpty() ? List.of(SqlDialect.GENERIC) : dialects));
        this.refuseMultiStatements = refuseMultiStatements;
        this.functions = functions;
        this.identifiers = IdentifierLength.of(this.dialects);
    }

    public AnalyzedStatement analyze(String sql) {
        Analysis cached = cache.get(sql);
        if (cached == null) {
            LiteralMask mask = sql.length() > MAX_CACHED_TEXT ? null : mask(sql);
            Analysis byShape = mask == null ? null : shapeAnalyses.trusted(mask);
            if (byShape != null) {
                return byShape.resolve(functions);
            }
            cached = analyzeByText(sql);
            if (mask != null) {
                shapeAnalyses.confirm(mask, cached, this::analyzeText);
            }
        }
        return cached.resolve(functions);
    }

    /** The shape of a text, the same for every dialect of the backends; null when it has none or they differ. */
    private LiteralMask mask(String sql) {
        LiteralMask mask = LiteralMask.of(sql, dialects.get(0).syntax());
        for (int d = 1; mask != null && d < dialects.size(); d++) {
            if (!mask.equals(LiteralMask.of(sql, dialects.get(d).syntax()))) {
                return null;
            }
        }
        return mask;
    }

    /** One text's analysis, from the text cache or parsed. */
    private Analysis analyzeByText(String sql) {
        Analysis cached = cache.get(sql);
        if (cached == null) {
            if (sql.length() > MAX_CACHED_TEXT) {
                return analyzeText(sql);
            }
            if (cache.size() >= CACHE_LIMIT || cachedChars.get() > CACHE_CHARS) {
                cache.clear(); // crude but bounded; workloads with more distinct texts than this are rare and gain
                // little
                cachedChars.set(0);
            }
            // One parse per text, even when many sessions send a new text at once.
            cached = cache.computeIfAbsent(sql, text -> {
                cachedChars.addAndGet(text.length());
                return analyzeText(text);
            });
        }
        return cached;
    }

    /**
     * The columns a query uses, for the result cache's column granularity; {@link ReadColumns#UNKNOWN}
     * (never cacheable) for a text the parser cannot read. Parsed again, once per text: only reads the
     * cache may hold come here.
     */
    public ReadColumns readColumns(String sql) {
        ReadColumns known = columns.get(sql);
        if (known != null) {
            return known;
        }
        if (columns.size() >= CACHE_LIMIT) {
            columns.clear(); // bounded as the analysis cache is
        }
        return columns.computeIfAbsent(sql, text -> {
            try {
                return ReadColumns.of(parse(text), text);
            } catch (JSQLParserException | RuntimeException e) {
                return ReadColumns.UNKNOWN;
            }
        });
    }

    /**
     * A statement the client sent as a call (JDBC CallableStatement), whatever its text: the function
     * may write anything, so it runs on every backend, ordered against every write. Not cached: no
     * parse is needed, unless the text holds a semicolon.
     */
    public AnalyzedStatement analyzeCall(String sql) {
        AnalyzedStatement call = AnalyzedStatement.unknown(StatementKind.CALL)
                .withDeterminism(NonDeterministicCalls.mayContain(sql), null);
        if (sql.indexOf(';') >= 0) {
            List<TextPart> parts = split(sql);
            if (parts == null || parts.size() > 1) {
                return call.withDeterminism(call.nonDeterministic(), parts == null ? AMBIGUOUS : SEVERAL_IN_A_CALL);
            }
        }
        return mentionsLock(sql) ? call.withAdvisoryLocks(analyze(sql).advisoryLocks()) : call;
    }

    int cacheSize() {
        return cache.size();
    }

    /** How many texts JSqlParser has parsed: what the caches by text and by shape save. */
    long parses() {
        return parses.get();
    }

    /** The statements of a text, the same for every dialect of the backends; null when the dialects disagree. */
    private List<TextPart> split(String sql) {
        List<TextPart> parts = StatementSplitter.split(sql, dialects.get(0));
        for (int d = 1; d < dialects.size(); d++) {
            List<TextPart> other = StatementSplitter.split(sql, dialects.get(d));
            if (other.size() != parts.size()) {
                return null;
            }
            List<TextPart> merged = new ArrayList<>(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                TextPart a = parts.get(i);
                TextPart b = other.get(i);
                if (a.start() != b.start() || a.end() != b.end() || a.toEnd() != b.toEnd()) {
                    return null;
                }
                Set<String> calls = new LinkedHashSet<>(a.calls());
                calls.addAll(b.calls()); // what either dialect takes for a call
                merged.add(new TextPart(a.start(), a.end(), a.toEnd(), Set.copyOf(calls)));
            }
            parts = merged;
        }
        return parts;
    }

    private Analysis analyzeText(String sql) {
        List<TextPart> parts = split(sql);
        if (parts == null) {
            return Analysis.of(AnalyzedStatement.refused(AMBIGUOUS));
        }
        if (parts.size() <= 1) {
            return analyzeStatement(sql, parts.isEmpty() ? null : parts.get(0));
        }
        if (refuseMultiStatements) {
            return Analysis.of(AnalyzedStatement.refused(REFUSED));
        }
        if (parts.size() > MAX_STATEMENTS) {
            return Analysis.of(AnalyzedStatement.refused(TOO_MANY));
        }
        List<AnalyzedStatement> plain = new ArrayList<>(parts.size());
        List<AnalyzedStatement> ifCallsWrite = new ArrayList<>(parts.size());
        Set<String> calls = new LinkedHashSet<>();
        for (TextPart part : parts) {
            Analysis a = analyzeStatement(part.text(sql), part);
            plain.add(a.plain());
            ifCallsWrite.add(a.ifCallsWrite());
            calls.addAll(a.calls());
        }
        AnalyzedStatement whole = MultiStatement.combine(plain, parts);
        return calls.isEmpty()
                ? Analysis.of(whole)
                : new Analysis(whole, MultiStatement.combine(ifCallsWrite, parts), List.copyOf(calls));
    }

    /**
     * One statement; {@code part} says where the splitter found it (null for a text of comments only).
     * A SELECT that calls functions gets the analysis for when one of them may write as well.
     */
    private Analysis analyzeStatement(String sql, TextPart part) {
        if (part != null && part.toEnd()) {
            // A body with semicolons of its own, and whatever follows it: conservative on every count.
            boolean compound = StatementWords.first(sql, wordSyntax(), 1)[0].equals("BEGIN");
            return Analysis.of(AnalyzedStatement.unknown(compound ? StatementKind.WRITE : StatementKind.DDL)
                    .withDeterminism(compound && NonDeterministicCalls.mayContain(sql), null)
                    .withRoutineChange(RoutineChange.EVERYTHING));
        }
        AnalyzedStatement a = analyzeUncached(sql);
        RoutineChange routines = RoutineDdl.of(sql);
        if (routines != null) {
            a = a.withRoutineChange(routines);
        }
        if (a.kind() != StatementKind.READ || part == null) {
            return Analysis.of(a);
        }
        Set<String> calls = new LinkedHashSet<>(part.calls());
        calls.addAll(callsOf(sql));
        if (calls.isEmpty()) {
            return Analysis.of(a);
        }
        // The function may write any table, so it is ordered against every write (no shape: everything).
        AnalyzedStatement write = new AnalyzedStatement(StatementKind.WRITE, a.tablesRead(), Set.of(), true, null, null)
                .withDeterminism(NonDeterministicCalls.mayContain(sql), null);
        return new Analysis(a, write, List.copyOf(calls));
    }

    /** The functions JSqlParser finds called in a SELECT (parsed again: reads that call functions are few). */
    private Set<String> callsOf(String sql) {
        try {
            return FunctionCallFinder.calls(parse(sql));
        } catch (JSQLParserException | RuntimeException e) {
            return Set.of(); // the splitter's names stand alone
        }
    }

    /**
     * One statement, parsed with a timeout so that a pathological text cannot hold a session forever.
     * JSqlParser stops at the first semicolon it sees as code; a text it reads as several statements
     * where the splitter saw one is not understood.
     */
    private Statement parse(String sql) throws JSQLParserException {
        parses.incrementAndGet();
        Statements statements =
                CCJSqlParserUtil.parseStatements(sql, parserThreads, parser -> parser.withTimeOut(2000));
        if (statements == null || statements.size() != 1) {
            throw new JSQLParserException("the parser reads " + (statements == null ? 0 : statements.size())
                    + " statements where the backends read one");
        }
        return statements.get(0);
    }

    private AnalyzedStatement analyzeUncached(String sql) {
        String[] words = StatementWords.first(sql, wordSyntax(), 3);
        String first = words[0];
        return switch (first) {
            case "BEGIN" -> {
                if (words[1].equals("NOT") && words[2].equals("ATOMIC")) {
                    // MariaDB's compound statement, a block of statements of any kind
                    yield AnalyzedStatement.unknown(StatementKind.WRITE)
                            .withDeterminism(NonDeterministicCalls.mayContain(sql), null);
                }
                yield AnalyzedStatement.transaction(TransactionCommand.BEGIN, null);
            }
            case "START" -> AnalyzedStatement.transaction(TransactionCommand.BEGIN, null);
            case "COMMIT", "END" -> AnalyzedStatement.transaction(TransactionCommand.COMMIT, null);
            case "ABORT" -> AnalyzedStatement.transaction(TransactionCommand.ROLLBACK, null);
            case "ROLLBACK" -> {
                if (words[1].equals("TO")) {
                    String name = words[2].equals("SAVEPOINT") ? savepointName(sql) : words[2];
                    yield AnalyzedStatement.transaction(TransactionCommand.ROLLBACK_TO_SAVEPOINT, name);
                }
                yield AnalyzedStatement.transaction(TransactionCommand.ROLLBACK, null);
            }
            case "SAVEPOINT" -> AnalyzedStatement.transaction(TransactionCommand.SAVEPOINT, savepointName(sql));
            case "RELEASE" -> {
                String name = words[1].equals("SAVEPOINT") ? savepointName(sql) : words[1];
                yield AnalyzedStatement.transaction(TransactionCommand.RELEASE_SAVEPOINT, name);
            }
            case "SET", "RESET", "DISCARD" ->
                new AnalyzedStatement(StatementKind.SESSION_SETTING, Set.of(), Set.of(), false, null, null);
            case "SHOW" -> AnalyzedStatement.of(StatementKind.READ, Set.of(), Set.of());
            default -> analyzeParsed(sql);
        };
    }

    /** Advisory-lock function names all contain "lock": a call's text without it needs no parse. */
    private static boolean mentionsLock(String sql) {
        for (int i = 0; i + 4 <= sql.length(); i++) {
            if (sql.regionMatches(true, i, "lock", 0, 4)) {
                return true;
            }
        }
        return false;
    }

    /** The leading words are read as the first backend's dialect lexes them: they are the same in all but odd texts. */
    private SqlSyntax wordSyntax() {
        return dialects.get(0).syntax();
    }

    private String savepointName(String sql) {
        return StatementWords.nameAfter(sql, wordSyntax(), "SAVEPOINT");
    }

    /** Whether the fact holds as any of the backends' dialects lexes the statement: the conservative answer. */
    private boolean inAnyDialect(String sql, BiPredicate<String, SqlSyntax> fact) {
        for (SqlDialect dialect : dialects) {
            if (fact.test(sql, dialect.syntax())) {
                return true;
            }
        }
        return false;
    }

    private AnalyzedStatement analyzeParsed(String sql) {
        Statement statement;
        try {
            statement = parse(sql);
        } catch (JSQLParserException | RuntimeException e) {
            unparsable.unparsable(sql);
            return AnalyzedStatement.unknown(StatementKind.WRITE)
                    .withDeterminism(NonDeterministicCalls.mayContain(sql), null);
        }
        try {
            AnalyzedStatement a = classify(statement, sql);
            String refusal = LimitWithoutOrder.problem(statement).orElse(null);
            boolean calls = a.kind().isWrite() && NonDeterministicCalls.mayContain(sql);
            return advisoryLocks(statement, calls || refusal != null ? a.withDeterminism(calls, refusal) : a);
        } catch (RuntimeException e) {
            // TablesNamesFinder refuses some statement types; fall back to the conservative answer.
            log.debug("cannot find the tables of {}: {}", UnparsableLog.abbreviate(sql), e.toString());
            return AnalyzedStatement.unknown(statement instanceof Select ? StatementKind.WRITE : StatementKind.DDL)
                    .withDeterminism(NonDeterministicCalls.mayContain(sql), null);
        }
    }

    private AnalyzedStatement classify(Statement statement, String sql) {
        if (statement instanceof Select select) {
            if (select instanceof PlainSelect plain
                    && plain.getIntoTables() != null
                    && !plain.getIntoTables().isEmpty()) {
                Set<String> written = canonical(plain.getIntoTables().stream()
                        .map(Table::getFullyQualifiedName)
                        .toList());
                AnalyzedStatement into =
                        AnalyzedStatement.of(StatementKind.DDL, minus(tables(statement), written), written);
                return written.size() == 1
                        ? into.withSchemaChange(
                                SchemaChange.create(written.iterator().next()))
                        : into;
            }
            if (SetConfigCall.isSessionSetting(select)) {
                return new AnalyzedStatement(StatementKind.SESSION_SETTING, Set.of(), Set.of(), false, null, null);
            }
            Set<String> read = tables(statement);
            boolean locksRows = inAnyDialect(sql, StatementWords::locksRows);
            if (inAnyDialect(sql, StatementWords::callsSequenceFunction)) {
                return sequenceCall(StatementKind.WRITE, read, Set.of())
                        .withShape(shapes.select(select, read, locksRows));
            }
            if (locksRows) {
                // Row locks must be taken on every backend, in the write order.
                return AnalyzedStatement.of(StatementKind.WRITE, read, Set.of())
                        .withShape(shapes.select(select, read, true));
            }
            return AnalyzedStatement.of(StatementKind.READ, read, Set.of());
        }
        Table target = writeTarget(statement);
        if (target != null) {
            Set<String> written = Set.of(name(target.getFullyQualifiedName()));
            Set<String> read = minus(tables(statement), written);
            AnalyzedStatement a = inAnyDialect(sql, StatementWords::callsSequenceFunction)
                    ? sequenceCall(StatementKind.WRITE, read, written)
                    : AnalyzedStatement.of(StatementKind.WRITE, read, written);
            // A MERGE's rows come from its source query: it conflicts with its whole target table.
            return statement instanceof Merge ? a : a.withShape(shapes.write(statement, target, read));
        }
        if (statement instanceof CreateTable create) {
            return createdTable(create);
        }
        if (statement instanceof CreateView view) {
            String name = name(view.getView().getFullyQualifiedName());
            return AnalyzedStatement.of(StatementKind.DDL, minus(tables(view.getSelect()), Set.of(name)), Set.of(name))
                    .withSchemaChange(SchemaChange.create(name));
        }
        // Sequence DDL goes to every backend, as a sequence may feed any table; it conflicts with its sequence.
        if (statement instanceof CreateSequence cs) {
            String sequence = name(cs.getSequence().getFullyQualifiedName());
            return AnalyzedStatement.unknown(StatementKind.DDL)
                    .withSchemaChange(SchemaChange.create(sequence))
                    .withShape(WriteShape.sequenceDdl(sequence));
        }
        if (statement instanceof Drop d && "SEQUENCE".equalsIgnoreCase(d.getType())) {
            String sequence = name(d.getName().getFullyQualifiedName());
            AnalyzedStatement drop = AnalyzedStatement.unknown(StatementKind.DDL)
                    .withSchemaChange(SchemaChange.drop(sequence, d.isIfExists()));
            // CASCADE drops the column defaults using it: a change to their tables, whichever they are.
            boolean cascade =
                    d.getParameters() != null && d.getParameters().stream().anyMatch("CASCADE"::equalsIgnoreCase);
            return cascade ? drop : drop.withShape(WriteShape.sequenceDdl(sequence));
        }
        if (statement instanceof AlterSequence as) {
            return AnalyzedStatement.unknown(StatementKind.DDL)
                    .withShape(WriteShape.sequenceDdl(name(as.getSequence().getFullyQualifiedName())));
        }
        if (statement instanceof Alter alter) {
            return altered(alter);
        }
        if (statement instanceof RenameTableStatement rename
                && rename.getTableNames().size() == 1) {
            Map.Entry<Table, Table> pair = rename.getTableNames().iterator().next();
            String from = name(pair.getKey().getFullyQualifiedName());
            return AnalyzedStatement.of(StatementKind.DDL, Set.of(), Set.of(from))
                    .withSchemaChange(
                            SchemaChange.rename(from, name(pair.getValue().getFullyQualifiedName())));
        }
        if (statement instanceof Truncate truncate) {
            // TRUNCATE a, b parses but keeps one table; several names are treated as touching everything.
            if (inAnyDialect(sql, StatementWords::namesSeveralTables)) {
                return AnalyzedStatement.unknown(StatementKind.WRITE);
            }
            return AnalyzedStatement.of(
                    StatementKind.WRITE,
                    Set.of(),
                    Set.of(name(truncate.getTable().getFullyQualifiedName())));
        }
        String ddlTarget = ddlTarget(statement);
        if (ddlTarget != null) {
            String name = name(ddlTarget);
            AnalyzedStatement ddl = AnalyzedStatement.of(StatementKind.DDL, Set.of(), Set.of(name));
            return statement instanceof Drop d ? ddl.withSchemaChange(SchemaChange.drop(name, d.isIfExists())) : ddl;
        }
        if (statement instanceof Execute || StatementWords.first(sql, wordSyntax(), 1)[0].equals("CALL")) {
            return AnalyzedStatement.unknown(StatementKind.CALL);
        }
        // Any other statement (GRANT, COMMENT, CREATE SCHEMA/FUNCTION, VACUUM, ...) may change anything.
        return AnalyzedStatement.unknown(StatementKind.DDL);
    }

    /** Marks a query or DML statement that calls advisory-lock functions: they run on the lock backend only. */
    private static AnalyzedStatement advisoryLocks(Statement statement, AnalyzedStatement a) {
        if (a.kind() != StatementKind.READ && a.kind() != StatementKind.WRITE) {
            return a;
        }
        try {
            AdvisoryLockCalls locks = AdvisoryLockCalls.of(FunctionCallFinder.calls(statement));
            return locks == null ? a : a.withAdvisoryLocks(locks);
        } catch (RuntimeException e) {
            return a; // a statement the finder cannot walk: as before this classification existed
        }
    }

    /**
     * CREATE [TEMPORARY] TABLE [AS SELECT]: writes the new table and reads its sources, the tables it
     * selects from and those its foreign keys reference, since it can only live where they are.
     */
    private AnalyzedStatement createdTable(CreateTable create) {
        String name = name(create.getTable().getFullyQualifiedName());
        Set<String> sources = new LinkedHashSet<>();
        if (create.getSelect() != null) {
            sources.addAll(tables(create.getSelect()));
        }
        if (create.getColumnDefinitions() != null) {
            for (ColumnDefinition column : create.getColumnDefinitions()) {
                String referenced = referencedTable(column.getColumnSpecs());
                if (referenced != null) {
                    sources.add(referenced);
                }
            }
        }
        if (create.getIndexes() != null) {
            for (Index index : create.getIndexes()) {
                if (index instanceof ForeignKeyIndex fk && fk.getTable() != null) {
                    sources.add(name(fk.getTable().getFullyQualifiedName()));
                }
            }
        }
        sources.remove(name); // a self-reference is no source
        return AnalyzedStatement.of(StatementKind.DDL, Set.copyOf(sources), Set.of(name))
                .withSchemaChange(SchemaChange.create(name));
    }

    /** The table after REFERENCES in a column's specification ({@code NOT NULL REFERENCES customer (c_id)}). */
    private String referencedTable(List<String> specs) {
        if (specs == null) {
            return null;
        }
        for (int i = 0; i + 1 < specs.size(); i++) {
            if (specs.get(i).equalsIgnoreCase("REFERENCES")) {
                String table = specs.get(i + 1);
                int paren = table.indexOf('(');
                return name(paren >= 0 ? table.substring(0, paren) : table);
            }
        }
        return null;
    }

    /** ALTER TABLE: writes the table; reads what an added foreign key references; RENAME TO renames it. */
    private AnalyzedStatement altered(Alter alter) {
        String name = name(alter.getTable().getFullyQualifiedName());
        Set<String> read = new LinkedHashSet<>();
        SchemaChange change = null;
        for (AlterExpression e :
                alter.getAlterExpressions() == null ? List.<AlterExpression>of() : alter.getAlterExpressions()) {
            if (e.getOperation() == AlterOperation.RENAME_TABLE && e.getNewTableName() != null) {
                change = SchemaChange.rename(name, name(e.getNewTableName()));
            }
            if (e.getIndex() instanceof ForeignKeyIndex fk && fk.getTable() != null) {
                read.add(name(fk.getTable().getFullyQualifiedName()));
            }
        }
        read.remove(name);
        AnalyzedStatement a = AnalyzedStatement.of(StatementKind.DDL, Set.copyOf(read), Set.of(name));
        return change == null ? a : a.withSchemaChange(change);
    }

    /**
     * A statement calling nextval/setval runs on every backend: which backends hold a sequence is not
     * followed. Its order against other calls of the sequence (and inserts relying on a default drawing
     * from it) comes from the sequence's conflict class in its {@link WriteShape}; without a shape, the
     * statement conflicts with everything.
     */
    private static AnalyzedStatement sequenceCall(StatementKind kind, Set<String> read, Set<String> written) {
        return new AnalyzedStatement(kind, read, written, true, null, null);
    }

    private static Table writeTarget(Statement s) {
        if (s instanceof Insert i) {
            return i.getTable();
        }
        if (s instanceof Update u) {
            return u.getTable();
        }
        if (s instanceof Delete d) {
            return d.getTable() != null
                    ? d.getTable()
                    : (d.getTables() != null && d.getTables().size() == 1
                            ? d.getTables().get(0)
                            : null);
        }
        if (s instanceof Merge m) {
            return m.getTable();
        }
        return null;
    }

    private static String ddlTarget(Statement s) {
        if (s instanceof Drop d
                && d.getName() != null
                && ("TABLE".equalsIgnoreCase(d.getType())
                        || "VIEW".equalsIgnoreCase(d.getType())
                        || "SEQUENCE".equalsIgnoreCase(d.getType()))) {
            return d.getName().getFullyQualifiedName();
        }
        if (s instanceof CreateIndex ci) {
            return ci.getTable().getFullyQualifiedName();
        }
        if (s instanceof AlterView av) {
            return av.getView().getFullyQualifiedName();
        }
        if (s instanceof AlterSequence as) {
            return as.getSequence().getFullyQualifiedName();
        }
        return null;
    }

    private Set<String> tables(Statement statement) {
        return canonical(new TablesNamesFinder().getTables(statement));
    }

    private Set<String> tables(Select select) {
        return canonical(new TablesNamesFinder().getTables((Statement) select));
    }

    /** A table's canonical name, as long as the backends keep it. */
    private String name(String table) {
        return TableNames.canonical(table, identifiers);
    }

    private Set<String> canonical(Iterable<String> names) {
        Set<String> out = new LinkedHashSet<>();
        for (String n : names) {
            if (!TableNames.isSystemCatalog(n)) {
                out.add(name(n));
            }
        }
        return Set.copyOf(out);
    }

    private static Set<String> minus(Set<String> all, Set<String> remove) {
        Set<String> out = new LinkedHashSet<>(all);
        out.removeAll(remove);
        return Set.copyOf(out);
    }

    static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }
}
