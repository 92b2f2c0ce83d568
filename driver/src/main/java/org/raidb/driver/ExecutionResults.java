package org.raidb.driver;

import java.util.ArrayList;
import java.util.List;
import org.raidb.driver.protocol.PayloadReader;
import org.raidb.driver.protocol.Protocol;
import org.raidb.driver.protocol.ProtocolException;
import org.raidb.driver.protocol.RowsetCodec;

/**
 * A decoded RESULTS frame: the results of one statement in order (a {@code Long} update count or a
 * {@link RowsetCodec.Rowset}) and the generated keys, if the statement asked for them and produced any.
 */
record ExecutionResults(List<Object> results, RowsetCodec.Rowset generatedKeys) {

  static ExecutionResults read(PayloadReader r) throws ProtocolException {
    ControllerChannel.expect(r, Protocol.RESULTS);
    int n = r.readCount(2); // a kind byte and at least one more byte per result
    List<Object> results = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte kind = r.readByte();
      if (kind == Protocol.RESULT_UPDATE_COUNT) {
        results.add(r.readLong());
      } else if (kind == Protocol.RESULT_ROWS) {
        results.add(RowsetCodec.readRowset(r));
      } else {
        throw new ProtocolException("unknown result kind " + kind + " in a RESULTS frame");
      }
    }
    RowsetCodec.Rowset keys = r.readBoolean() ? RowsetCodec.readRowset(r) : null;
    return new ExecutionResults(results, keys);
  }
}
