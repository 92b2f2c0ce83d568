package org.raidb.driver;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.raidb.driver.protocol.RowsetCodec;

/**
 * A TYPE_SCROLL_INSENSITIVE result set. Like pgjdbc's, it holds every row in memory: they are all
 * fetched when it opens, so it sees no later change and can move anywhere. The moves and the
 * position tests follow pgjdbc's, including where they differ from the letter of JDBC (relative()
 * with no current row moves from before the first row; an empty result is neither before its first
 * row nor after its last).
 */
final class ScrollableResultSet extends RaidbResultSet {
    private final List<Object[]> rows;
    /** -1 before the first row, rows.size() after the last. */
    private int index = -1;

    private int fetchDirection = ResultSet.FETCH_FORWARD;

    ScrollableResultSet(
            RaidbStatement statement, ControllerChannel channel, RowsetCodec.Rowset rowset, int fetchSize, long maxRows)
            throws SQLException {
        super(statement, channel, rowset, fetchSize, maxRows);
        this.rows = drain();
    }

    /** Goes to the 0-based {@code at}, which may be -1 or rows.size(); returns whether it is a row. */
    private boolean moveTo(int at) {
        index = at;
        boolean onRow = at >= 0 && at < rows.size();
        position(onRow ? rows.get(at) : null);
        return onRow;
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        return moveTo(Math.min(index + 1, rows.size()));
    }

    @Override
    public boolean previous() throws SQLException {
        checkOpen();
        return moveTo(Math.max(index - 1, -1));
    }

    @Override
    public boolean first() throws SQLException {
        checkOpen();
        return !rows.isEmpty() && moveTo(0);
    }

    @Override
    public boolean last() throws SQLException {
        checkOpen();
        return !rows.isEmpty() && moveTo(rows.size() - 1);
    }

    @Override
    public void beforeFirst() throws SQLException {
        checkOpen();
        if (!rows.isEmpty()) {
            moveTo(-1);
        }
    }

    @Override
    public void afterLast() throws SQLException {
        checkOpen();
        if (!rows.isEmpty()) {
            moveTo(rows.size());
        }
    }

    /** 1-based from the start, negative from the end, 0 before the first row. */
    @Override
    public boolean absolute(int row) throws SQLException {
        checkOpen();
        if (row == 0 || row < -rows.size()) {
            moveTo(-1);
            return false;
        }
        if (row > rows.size()) {
            moveTo(rows.size());
            return false;
        }
        return moveTo(row > 0 ? row - 1 : rows.size() + row);
    }

    @Override
    public boolean relative(int n) throws SQLException {
        checkOpen();
        long target = (long) index + 1 + n;
        if (target < 0) {
            moveTo(-1);
            return false;
        }
        return absolute((int) Math.min(target, Integer.MAX_VALUE));
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return index >= 0 && index < rows.size() ? index + 1 : 0;
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return index < 0 && !rows.isEmpty();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return !rows.isEmpty() && index >= rows.size();
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return !rows.isEmpty() && index == 0;
    }

    @Override
    public boolean isLast() throws SQLException {
        checkOpen();
        return !rows.isEmpty() && index == rows.size() - 1;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_SCROLL_INSENSITIVE;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        RaidbStatement.checkFetchDirection(direction);
        fetchDirection = direction; // a hint only: every row is here already
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return fetchDirection;
    }
}
