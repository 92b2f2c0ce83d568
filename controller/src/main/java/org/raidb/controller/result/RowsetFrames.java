package org.raidb.controller.result;

import org.raidb.driver.protocol.ColumnInfo;
import org.raidb.driver.protocol.PayloadWriter;

/** Writes the rowset layout of docs/protocol.md. */
public final class RowsetFrames {
  /** A frame of rows stops growing at this size even if the fetch size allows more rows. */
  public static final int BATCH_BYTES = 4 * 1024 * 1024;

  private RowsetFrames() {}

  /** Writes the rowset header and its first batch; returns whether every row was sent. */
  public static boolean writeRowset(PayloadWriter w, long cursorId, RowSource rows, int fetchSize) throws java.sql.SQLException {
    int cursorAt = w.size();
    w.writeLong(cursorId);
    ColumnInfo[] cols = rows.columns();
    w.writeInt(cols.length);
    for (ColumnInfo c : cols) {
      c.write(w);
    }
    boolean last = rows.writeBatch(w, fetchSize, BATCH_BYTES);
    if (last) {
      patchLong(w, cursorAt, 0); // nothing left to fetch: the client must not ask for this cursor
    }
    return last;
  }

  /** The row count precedes the rows but is known only after them: write a placeholder, then patch it. */
  static void patchRowCount(PayloadWriter w, int countAt, int count) {
    w.patchInt(countAt, count);
  }

  private static void patchLong(PayloadWriter w, int at, long v) {
    w.patchInt(at, (int) (v >>> 32));
    w.patchInt(at + 4, (int) v);
  }
}
