package org.raidb.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.RowsetCodec;
import org.raidb.driver.protocol.SqlNull;
import org.raidb.driver.protocol.TypedText;

/** The JDBC surface against a {@link FakeController} that scripts the controller's answers. */
class StatementFlowTest {
    private FakeController fake;
    private Connection conn;
    /** EXECUTE frames as the fake decoded them. */
    private final List<Execute> executes = new CopyOnWriteArrayList<>();

    record Execute(
            String sql,
            List<Object> params,
            byte mode,
            int flags,
            List<String> keyColumns,
            int fetchSize,
            long maxRows,
            int timeout) {
        static Execute read(PayloadReader r) throws Exception {
            String sql = r.readString();
            int n = r.readInt();
            List<Object> params = null;
            if (n >= 0) {
                params = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    params.add(r.readValue());
                }
            }
            return new Execute(
                    sql, params, r.readByte(), r.readInt(), r.readStringList(), r.readInt(), r.readLong(), r.readInt());
        }
    }

    @BeforeEach
    void connect() throws Exception {
        fake = new FakeController();
        conn = DriverManager.getConnection(fake.url("shop"), "bob", "pw");
    }

    @AfterEach
    void close() throws Exception {
        conn.close();
        fake.close();
    }

    private static List<Object[]> intRows(int from, int count) {
        List<Object[]> rows = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            rows.add(new Object[] {i});
        }
        return rows;
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within 10 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static String state(Throwable e) {
        return ((SQLException) e).getSQLState();
    }

    @Test
    void streamsBatchesWithFetchHoldingOnlyOneBatch() throws Exception {
        int batches = 100;
        int batchSize = 10;
        List<Integer> fetchSizes = new CopyOnWriteArrayList<>();
        int[] next = {0};
        fake.handler = (r, p) -> {
            if (r.type() == Protocol.EXECUTE) {
                executes.add(Execute.read(r));
                p.rows(9, List.of(FakeController.intColumn("n")), intRows(0, batchSize), false);
                next[0] = 1;
            } else if (r.type() == Protocol.FETCH) {
                assertThat(r.readLong()).isEqualTo(9);
                fetchSizes.add(r.readInt());
                int index = next[0]++;
                p.batch(intRows(index * batchSize, batchSize), index == batches - 1);
            }
        };
        try (Statement st = conn.createStatement()) {
            st.setFetchSize(batchSize);
            ResultSet rs = st.executeQuery("select n from big");
            RaidbResultSet raidbRs = rs.unwrap(RaidbResultSet.class);
            assertThat(rs.isBeforeFirst()).isTrue();
            long sum = 0;
            int count = 0;
            while (rs.next()) {
                assertThat(raidbRs.bufferedRowCount()).isLessThanOrEqualTo(batchSize);
                assertThat(rs.getInt(1)).isEqualTo(count);
                sum += rs.getLong("N");
                count++;
            }
            assertThat(count).isEqualTo(batches * batchSize);
            assertThat(sum).isEqualTo((long) count * (count - 1) / 2);
            assertThat(rs.isAfterLast()).isTrue();
            assertThatThrownBy(() -> rs.getInt(1))
                    .satisfies(e -> assertThat(state(e)).isEqualTo("24000"));
            rs.close();
        }
        assertThat(fetchSizes).hasSize(batches - 1).containsOnly(batchSize);
        assertThat(fake.received).doesNotContain((char) Protocol.CLOSE_CURSOR);
        assertThat(executes.get(0).fetchSize()).isEqualTo(batchSize);
        assertThat(executes.get(0).params()).isNull();
        assertThat(executes.get(0).mode()).isEqualTo(Protocol.MODE_QUERY);
    }

    @Test
    void closingEarlySendsCloseCursorAndNewStatementClosesPreviousResultSet() throws Exception {
        List<Long> closedCursors = new CopyOnWriteArrayList<>();
        fake.handler = (r, p) -> {
            if (r.type() == Protocol.EXECUTE) {
                p.rows(5, List.of(FakeController.intColumn("n")), intRows(0, 3), false);
            } else if (r.type() == Protocol.CLOSE_CURSOR) {
                closedCursors.add(r.readLong());
                p.ok();
            }
        };
        Statement st = conn.createStatement();
        ResultSet first = st.executeQuery("select 1");
        assertThat(first.next()).isTrue();
        ResultSet second = st.executeQuery("select 2");
        assertThat(first.isClosed()).isTrue();
        assertThat(closedCursors).containsExactly(5L);
        second.close();
        assertThat(closedCursors).containsExactly(5L, 5L);
        second.close(); // idempotent: no second CLOSE_CURSOR
        assertThat(closedCursors).hasSize(2);
    }

    @Test
    void executeQueryWithoutRowsAndExecuteUpdateWithRowsFailLikePgjdbc() throws Exception {
        fake.handler = (r, p) -> {
            Execute e = Execute.read(r);
            if (e.sql().startsWith("update")) {
                p.updateCount(3);
            } else {
                p.rows(List.of(FakeController.intColumn("n")), intRows(0, 1));
            }
        };
        try (Statement st = conn.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("update t set a = 1"))
                    .hasMessage("No results were returned by the query.")
                    .satisfies(e -> assertThat(state(e)).isEqualTo("02000"));
            assertThatThrownBy(() -> st.executeUpdate("select 1"))
                    .hasMessage("A result was returned when none was expected.")
                    .satisfies(e -> assertThat(state(e)).isEqualTo("0100E"));
            assertThat(st.executeUpdate("update t set a = 1")).isEqualTo(3);
            assertThat(st.getUpdateCount()).isEqualTo(3);
            assertThat(st.execute("select 1")).isTrue();
            assertThat(st.getUpdateCount()).isEqualTo(-1);
        }
    }

    @Test
    void getMoreResultsWalksEveryResultOfOneFrame() throws Exception {
        fake.handler = (r, p) -> {
            org.raidb.driver.protocol.PayloadWriter w =
                    p.begin(Protocol.RESULTS).writeInt(3);
            w.writeByte(Protocol.RESULT_UPDATE_COUNT).writeLong(4);
            w.writeByte(Protocol.RESULT_ROWS);
            RowsetCodec.writeRowset(
                    w, 0, List.of(FakeController.textColumn("s")), List.<Object[]>of(new Object[] {"a"}), true);
            w.writeByte(Protocol.RESULT_UPDATE_COUNT).writeLong(7);
            w.writeBoolean(false).writeInt(0);
            p.send();
        };
        try (Statement st = conn.createStatement()) {
            assertThat(st.execute("update x; select 'a'; delete y")).isFalse();
            assertThat(st.getUpdateCount()).isEqualTo(4);
            assertThat(st.getMoreResults()).isTrue();
            ResultSet rs = st.getResultSet();
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("S")).isEqualTo("a");
            assertThat(st.getMoreResults()).isFalse();
            assertThat(rs.isClosed()).isTrue();
            assertThat(st.getUpdateCount()).isEqualTo(7);
            assertThat(st.getMoreResults()).isFalse();
            assertThat(st.getUpdateCount()).isEqualTo(-1);
            assertThat(st.getResultSet()).isNull();
        }
    }

    @Test
    void generatedKeysComeFromTheResultsFrame() throws Exception {
        fake.handler = (r, p) -> {
            Execute e = Execute.read(r);
            executes.add(e);
            org.raidb.driver.protocol.PayloadWriter w =
                    p.begin(Protocol.RESULTS).writeInt(1);
            w.writeByte(Protocol.RESULT_UPDATE_COUNT).writeLong(1);
            boolean keys = (e.flags() & Protocol.FLAG_RETURN_GENERATED_KEYS) != 0;
            w.writeBoolean(keys);
            if (keys) {
                RowsetCodec.writeRowset(
                        w, 0, List.of(FakeController.intColumn("id")), List.<Object[]>of(new Object[] {55L}), true);
            }
            w.writeInt(0); // no warnings
            p.send();
        };
        try (PreparedStatement ps = conn.prepareStatement("insert into t(a) values (?)", new String[] {"id"})) {
            ps.setString(1, "x");
            assertThat(ps.executeUpdate()).isEqualTo(1);
            ResultSet keys = ps.getGeneratedKeys();
            assertThat(keys.next()).isTrue();
            assertThat(keys.getLong("id")).isEqualTo(55);
            assertThat(keys.next()).isFalse();
        }
        assertThat(executes.get(0).keyColumns()).containsExactly("id");
        assertThat(executes.get(0).flags() & Protocol.FLAG_RETURN_GENERATED_KEYS)
                .isEqualTo(1);
        try (Statement st = conn.createStatement()) {
            st.executeUpdate("insert into t(a) values ('y')");
            ResultSet keys = st.getGeneratedKeys();
            assertThat(keys.next()).isFalse();
        }
        assertThat(executes.get(1).flags()).isZero();
        assertThatThrownBy(() -> conn.prepareStatement("insert", new int[] {1}))
                .satisfies(e -> assertThat(state(e)).isEqualTo("0A000"));
    }

    @Test
    void batchErrorWithCountsIsABatchUpdateException() throws Exception {
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        fake.handler = (r, p) -> {
            assertThat(r.readByte()).isEqualTo((byte) 0);
            r.readInt();
            assertThat(r.readInt()).isZero(); // flags
            assertThat(r.readStringList()).isNull(); // key columns
            List<String> statements = r.readStringList();
            batches.add(statements);
            if (statements.size() == 2) {
                p.begin(Protocol.BATCH_RESULT)
                        .writeInt(2)
                        .writeLong(1)
                        .writeLong(2)
                        .writeBoolean(false)
                        .writeInt(0);
                p.send();
            } else {
                p.error(new BatchUpdateException(
                        "duplicate key", "23505", 0, new long[] {1, Statement.EXECUTE_FAILED}, null));
            }
        };
        try (Statement st = conn.createStatement()) {
            st.addBatch("insert 1");
            st.addBatch("insert 2");
            assertThat(st.executeBatch()).containsExactly(1, 2);
            st.addBatch("insert 3");
            st.addBatch("insert 3");
            st.addBatch("insert 4");
            assertThatThrownBy(st::executeBatch)
                    .isInstanceOf(BatchUpdateException.class)
                    .hasMessage("duplicate key")
                    .satisfies(e -> {
                        assertThat(state(e)).isEqualTo("23505");
                        assertThat(((BatchUpdateException) e).getUpdateCounts())
                                .containsExactly(1, Statement.EXECUTE_FAILED);
                    });
            assertThat(st.executeBatch()).isEmpty(); // the batch was cleared
        }
        assertThat(batches.get(0)).containsExactly("insert 1", "insert 2");
    }

    @Test
    void preparedBatchSendsOneRowPerAddBatch() throws Exception {
        List<List<Object>> rows = new CopyOnWriteArrayList<>();
        fake.handler = (r, p) -> {
            assertThat(r.readByte()).isEqualTo((byte) 1);
            assertThat(r.readInt()).isEqualTo(5);
            assertThat(r.readInt()).isZero(); // flags
            assertThat(r.readStringList()).isNull(); // key columns
            assertThat(r.readString()).isEqualTo("insert into t values (?, ?)");
            int n = r.readInt();
            for (int i = 0; i < n; i++) {
                int m = r.readInt();
                List<Object> row = new ArrayList<>();
                for (int j = 0; j < m; j++) {
                    row.add(r.readValue());
                }
                rows.add(row);
            }
            org.raidb.driver.protocol.PayloadWriter w =
                    p.begin(Protocol.BATCH_RESULT).writeInt(n);
            for (int i = 0; i < n; i++) {
                w.writeLong(1);
            }
            w.writeBoolean(false).writeInt(0); // no generated keys, no warnings
            p.send();
        };
        try (PreparedStatement ps = conn.prepareStatement("insert into t values (?, ?)")) {
            ps.setQueryTimeout(5);
            ps.setInt(1, 1);
            ps.setString(2, "a");
            ps.addBatch();
            ps.setInt(1, 2);
            ps.setNull(2, Types.VARCHAR);
            ps.addBatch();
            assertThat(ps.executeBatch()).containsExactly(1, 1);
            assertThatThrownBy(() -> ps.addBatch("select 1"))
                    .satisfies(e -> assertThat(state(e)).isEqualTo("42809"));
        }
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).containsExactly(1, "a");
        assertThat(rows.get(1)).containsExactly(2, SqlNull.of(Types.VARCHAR));
    }

    @Test
    void preparedParametersTravelAsWireTypes() throws Exception {
        List<String> described = new CopyOnWriteArrayList<>();
        fake.handler = (r, p) -> {
            if (r.type() == Protocol.DESCRIBE) {
                described.add(r.readString());
                List<org.raidb.driver.protocol.ParameterInfo> ten = java.util.Collections.nCopies(
                        10,
                        new org.raidb.driver.protocol.ParameterInfo(
                                Types.INTEGER, "int4", "java.lang.Integer", 10, 0, 2, true, 1));
                new org.raidb.driver.protocol.StatementDescription(ten, null).write(p.begin(Protocol.DESCRIPTION));
                p.send();
                return;
            }
            executes.add(Execute.read(r));
            p.updateCount(1);
        };
        UUID uuid = UUID.randomUUID();
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        Timestamp instant = Timestamp.from(java.time.Instant.parse("2024-05-06T07:08:09.123456789Z"));
        try (PreparedStatement ps =
                conn.prepareStatement("update t set a=?, b=?, c=?, d=?, e=?, f=?, g=?, h=?, i=? where '?' = ?")) {
            assertThat(ps.getParameterMetaData().getParameterCount()).isEqualTo(10);
            assertThat(ps.getParameterMetaData().getParameterTypeName(10)).isEqualTo("int4");
            assertThat(described)
                    .containsExactly("update t set a=?, b=?, c=?, d=?, e=?, f=?, g=?, h=?, i=? where '?' = ?");
            assertThat(ps.getMetaData()).isNull(); // described as returning no rows
            ps.setLong(1, 7L);
            ps.setBigDecimal(2, new BigDecimal("1.50"));
            ps.setDate(3, java.sql.Date.valueOf("2024-02-29"));
            ps.setTimestamp(4, instant, utc);
            ps.setObject(5, uuid);
            ps.setObject(6, "12", Types.INTEGER);
            ps.setObject(7, "{\"a\":1}", Types.OTHER);
            ps.setBytes(8, new byte[] {9});
            ps.setCharacterStream(9, new java.io.StringReader("streamed"));
            assertThatThrownBy(ps::executeUpdate)
                    .hasMessage("No value specified for parameter 10.")
                    .satisfies(e -> assertThat(state(e)).isEqualTo("22023"));
            ps.setBoolean(10, true);
            assertThatThrownBy(() -> ps.setInt(11, 1))
                    .satisfies(e -> assertThat(state(e)).isEqualTo("22023"));
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        List<Object> params = executes.get(0).params();
        assertThat(params.get(0)).isEqualTo(7L);
        assertThat(params.get(1)).isEqualTo(new BigDecimal("1.50"));
        assertThat(params.get(2)).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(params.get(3)).isEqualTo(LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123456789));
        assertThat(params.get(4)).isEqualTo(uuid);
        assertThat(params.get(5)).isEqualTo(12);
        assertThat(params.get(6)).isEqualTo(new TypedText(null, "{\"a\":1}"));
        assertThat((byte[]) params.get(7)).containsExactly(9);
        assertThat(params.get(8)).isEqualTo("streamed");
        assertThat(params.get(9)).isEqualTo(true);
        assertThat(executes.get(0).mode()).isEqualTo(Protocol.MODE_UPDATE);
    }

    @Test
    void resultSetGettersConvertLikePgjdbc() throws Exception {
        LocalDateTime ts = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 600_000_000);
        fake.handler = (r, p) -> p.rows(
                List.of(
                        FakeController.textColumn("s"),
                        FakeController.intColumn("i"),
                        FakeController.textColumn("d"),
                        FakeController.textColumn("ts"),
                        FakeController.textColumn("n"),
                        FakeController.textColumn("big")),
                List.<Object[]>of(new Object[] {"12", 7, LocalDate.of(2024, 2, 29), ts, null, 3_000_000_000L}));
        try (Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("select ...")) {
            assertThatThrownBy(() -> rs.getString(1))
                    .satisfies(e -> assertThat(state(e)).isEqualTo("24000"));
            assertThat(rs.next()).isTrue();
            assertThat(rs.isFirst()).isTrue();
            assertThat(rs.getInt("S")).isEqualTo(12);
            assertThat(rs.getString("i")).isEqualTo("7");
            assertThat(rs.getBigDecimal(2)).isEqualTo(new BigDecimal(7));
            assertThat(rs.getObject(3)).isEqualTo(java.sql.Date.valueOf("2024-02-29"));
            assertThat(rs.getObject(3, LocalDate.class)).isEqualTo(LocalDate.of(2024, 2, 29));
            assertThat(rs.getObject(4)).isEqualTo(Timestamp.valueOf(ts));
            assertThat(rs.getString(4)).isEqualTo("2024-01-02 03:04:05.6");
            Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
            assertThat(rs.getTimestamp(4, utc).toInstant()).isEqualTo(ts.toInstant(java.time.ZoneOffset.UTC));
            assertThat(rs.getInt(5)).isZero();
            assertThat(rs.wasNull()).isTrue();
            assertThat(rs.getString(5)).isNull();
            assertThat(rs.getLong(6)).isEqualTo(3_000_000_000L);
            assertThatThrownBy(() -> rs.getInt(6))
                    .satisfies(e -> assertThat(state(e)).isEqualTo("22003"))
                    .hasMessageContaining("int")
                    .hasMessageContaining("3000000000");
            assertThatThrownBy(() -> rs.getInt(4)).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> rs.getInt("nope"))
                    .satisfies(e -> assertThat(state(e)).isEqualTo("42703"))
                    .hasMessageContaining("nope");
            assertThat(rs.getMetaData().getColumnCount()).isEqualTo(6);
            assertThat(rs.getMetaData().getColumnLabel(2)).isEqualTo("i");
            assertThat(rs.getMetaData().getColumnType(2)).isEqualTo(Types.INTEGER);
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void cancelSendsCancelOnASecondSocketWithoutTheConnectionLock() throws Exception {
        fake.handler = (r, p) -> {
            long[] cancel = fake.cancels.poll(10, TimeUnit.SECONDS);
            if (cancel != null) {
                fake.cancels.add(cancel); // leave it for the test to inspect
                p.error(new SQLException("canceling statement due to user request", "57014"));
            } else {
                p.updateCount(0);
            }
        };
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (Statement st = conn.createStatement()) {
            Future<Boolean> running = executor.submit(() -> st.execute("select pg_sleep(60)"));
            RaidbStatement raidbSt = st.unwrap(RaidbStatement.class);
            awaitTrue(raidbSt::isExecuting);
            st.cancel();
            assertThatThrownBy(() -> running.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .isInstanceOf(java.sql.SQLTimeoutException.class)
                    .satisfies(e -> assertThat(state(e)).isEqualTo("57014"));
            assertThat(fake.cancels.peek()).containsExactly(FakeController.SESSION_ID, FakeController.CANCEL_SECRET);
        } finally {
            executor.shutdownNow();
        }
        assertThat(conn.isClosed()).isFalse(); // the session stays usable after a cancel
    }

    @Test
    void callableStatementTranslatesTheEscapeAndReadsTheValue() throws Exception {
        fake.handler = (r, p) -> {
            Execute e = Execute.read(r);
            executes.add(e);
            p.rows(List.of(FakeController.intColumn("add")), List.<Object[]>of(new Object[] {5}));
        };
        try (CallableStatement cs = conn.prepareCall("{? = call add(?, ?)}")) {
            cs.registerOutParameter(1, Types.INTEGER);
            cs.setInt(2, 2);
            cs.setInt(3, 3);
            cs.execute();
            assertThat(cs.getInt(1)).isEqualTo(5);
            assertThat(cs.wasNull()).isFalse();
            assertThat(cs.getObject(1)).isEqualTo(5);
            assertThatThrownBy(() -> cs.getInt("result"))
                    .satisfies(e -> assertThat(state(e)).isEqualTo("0A000"));
        }
        assertThat(executes.get(0).sql()).isEqualTo("select add(?, ?)");
        assertThat(executes.get(0).params()).containsExactly(2, 3);
        // The translated SELECT may call a function that writes: the controller is told it is a call.
        assertThat(executes.get(0).flags() & Protocol.FLAG_CALL).isEqualTo(Protocol.FLAG_CALL);
        try (PreparedStatement ps = conn.prepareStatement("select add(?, ?)")) {
            ps.setInt(1, 2);
            ps.setInt(2, 3);
            ps.execute();
        }
        assertThat(executes.get(1).flags() & Protocol.FLAG_CALL)
                .as("a PreparedStatement is not a call")
                .isZero();
    }

    @Test
    void transactionsAndSavepointsSendTransactionFrames() throws Exception {
        List<String> ops = new CopyOnWriteArrayList<>();
        fake.handler = (r, p) -> {
            byte op = r.readByte();
            String arg = switch (op) {
                case Protocol.TX_SET_AUTOCOMMIT, Protocol.TX_SET_READ_ONLY -> String.valueOf(r.readBoolean());
                case Protocol.TX_SET_SAVEPOINT, Protocol.TX_ROLLBACK_TO_SAVEPOINT, Protocol.TX_RELEASE_SAVEPOINT ->
                    r.readString();
                case Protocol.TX_SET_ISOLATION -> String.valueOf(r.readInt());
                default -> "";
            };
            ops.add(op + ":" + arg);
            p.ok();
        };
        assertThatThrownBy(conn::commit).satisfies(e -> assertThat(state(e)).isEqualTo("25P01"));
        conn.setAutoCommit(false);
        Savepoint unnamed = conn.setSavepoint();
        Savepoint named = conn.setSavepoint("before_update");
        conn.rollback(unnamed);
        conn.releaseSavepoint(named);
        assertThatThrownBy(() -> conn.rollback(named))
                .satisfies(e -> assertThat(state(e)).isEqualTo("3B001"));
        conn.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        conn.setReadOnly(true);
        conn.commit();
        conn.rollback();
        assertThat(unnamed.getSavepointId()).isZero();
        assertThat(ops)
                .containsExactly(
                        "1:false",
                        "4:JDBC_SAVEPOINT_0",
                        "4:before_update",
                        "5:JDBC_SAVEPOINT_0",
                        "6:before_update",
                        "7:8",
                        "8:true",
                        "2:",
                        "3:");
        assertThat(conn.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
        assertThat(conn.getAutoCommit()).isFalse();
    }

    @Test
    void metadataMethodsSendTheirArguments() throws Exception {
        List<List<Object>> calls = new CopyOnWriteArrayList<>();
        fake.handler = (r, p) -> {
            List<Object> call = new ArrayList<>();
            call.add(r.readString());
            int n = r.readInt();
            for (int i = 0; i < n; i++) {
                call.add(r.readValue());
            }
            calls.add(call);
            p.rows(List.of(FakeController.textColumn("TABLE_NAME")), List.<Object[]>of(new Object[] {"items"}));
        };
        ResultSet rs = conn.getMetaData().getTables(null, "public", "it%", new String[] {"TABLE", "VIEW"});
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("table_name")).isEqualTo("items");
        Statement owner = rs.getStatement();
        assertThat(owner).isNotNull();
        rs.close();
        assertThat(owner.isClosed()).isTrue();
        conn.getMetaData().getIndexInfo(null, "public", "items", true, false).close();
        conn.getMetaData()
                .getUDTs(null, null, "%", new int[] {Types.STRUCT, Types.DISTINCT})
                .close();
        assertThat(calls.get(0))
                .containsExactly(
                        "getTables", SqlNull.of(Types.NULL), "public", "it%", new TypedText("text[]", "TABLE,VIEW"));
        assertThat(calls.get(1))
                .containsExactly("getIndexInfo", SqlNull.of(Types.NULL), "public", "items", true, false);
        assertThat(calls.get(2))
                .containsExactly(
                        "getUDTs",
                        SqlNull.of(Types.NULL),
                        SqlNull.of(Types.NULL),
                        "%",
                        new TypedText("int4[]", Types.STRUCT + "," + Types.DISTINCT));
        assertThat(conn.getMetaData().storesLowerCaseIdentifiers()).isTrue();
        assertThat(conn.getMetaData().getDefaultTransactionIsolation())
                .isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
    }

    @Test
    void socketFailureIs08006AndClosesTheConnection() throws Exception {
        fake.handler = (r, p) -> p.kill();
        try (Statement st = conn.createStatement()) {
            assertThatThrownBy(() -> st.execute("select 1"))
                    .satisfies(e -> assertThat(state(e)).isEqualTo("08006"));
        }
        assertThat(conn.isClosed()).isTrue();
        assertThat(conn.isValid(1)).isFalse();
        assertThatThrownBy(conn::createStatement)
                .satisfies(e -> assertThat(state(e)).isEqualTo("08003"));
    }

    @Test
    void pingCloseAndResultSetKinds() throws Exception {
        fake.handler = (r, p) -> {
            assertThat(r.readInt()).isEqualTo(3);
            p.ok();
        };
        assertThat(conn.isValid(3)).isTrue();
        assertThatThrownBy(() -> conn.createStatement(12345, ResultSet.CONCUR_READ_ONLY))
                .satisfies(e -> assertThat(state(e)).isEqualTo("22023"));
        // What the driver cannot give is downgraded, with a warning on the connection, as JDBC asks.
        Statement downgraded = conn.createStatement(ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_UPDATABLE);
        assertThat(downgraded.getResultSetType()).isEqualTo(ResultSet.TYPE_SCROLL_INSENSITIVE);
        assertThat(downgraded.getResultSetConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
        assertThat(conn.getWarnings().getMessage()).contains("TYPE_SCROLL_SENSITIVE");
        assertThat(conn.getWarnings().getNextWarning().getMessage()).contains("CONCUR_UPDATABLE");
        conn.setNetworkTimeout(Runnable::run, 1234);
        assertThat(conn.getNetworkTimeout()).isEqualTo(1234);
        conn.close();
        conn.close();
        assertThat(conn.isClosed()).isTrue();
        awaitTrue(() -> fake.received.contains((char) Protocol.CLOSE));
        assertThatThrownBy(() -> conn.setAutoCommit(false))
                .satisfies(e -> assertThat(state(e)).isEqualTo("08003"));
    }
}
