package org.raidb.driver.protocol;

import java.sql.SQLException;
import java.sql.SQLWarning;

/**
 * What closes both RESULTS and BATCH_RESULT: {@code byte hasGeneratedKeys | [rowset] | warnings}.
 */
final class ResultTail {
    private ResultTail() {}

    /** @param generatedKeys null when the statement did not ask for keys */
    static void write(PayloadWriter w, RowsetCodec.RowsetWriter generatedKeys, SQLWarning warnings)
            throws SQLException {
        w.writeBoolean(generatedKeys != null);
        if (generatedKeys != null) {
            generatedKeys.write(w);
        }
        Warnings.write(w, warnings);
    }

    static RowsetCodec.Rowset readGeneratedKeys(PayloadReader r) throws ProtocolException {
        return r.readBoolean() ? RowsetCodec.readRowset(r) : null;
    }
}
