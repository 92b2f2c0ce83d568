package org.raidb.controller.request;

import java.sql.SQLWarning;
import java.util.List;
import org.raidb.controller.result.RowSource;

/**
 * What one statement produced on one backend, in order: update counts ({@code Long}) and row sources.
 *
 * @param generatedKeys null when the client did not ask for keys
 * @param warnings what the backend reported while running it (notices, warnings), null for none: the
 *     client gets those of the backend whose answer it gets
 */
public record StatementResult(List<Object> results, RowSource generatedKeys, SQLWarning warnings) {

  public StatementResult(List<Object> results, RowSource generatedKeys) {
    this(results, generatedKeys, null);
  }

  /** Closes every row source not yet handed to a client (results of the backends whose answer is not used). */
  public void discard() {
    for (Object r : results) {
      if (r instanceof RowSource rows) {
        rows.close();
      }
    }
    if (generatedKeys != null) {
      generatedKeys.close();
    }
  }

  /** A single result set left open on its backend as a cursor: the connection stays in use until it is closed. */
  public boolean isCursor() {
    return results.size() == 1 && results.get(0) instanceof RowSource rows && rows.knownRowCount() < 0;
  }

  /**
   * What must agree between backends for them to be called identical after this statement:
   * update counts and the number of rows returned.
   */
  public String signature() {
    StringBuilder sb = new StringBuilder();
    for (Object r : results) {
      if (r instanceof Long count) {
        sb.append("update count ").append(count);
      } else {
        sb.append(((RowSource) r).knownRowCount()).append(" rows");
      }
      sb.append("; ");
    }
    return sb.toString();
  }
}
