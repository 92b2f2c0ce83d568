package org.raidb.balancer;

import java.util.ArrayList;
import java.util.List;

/** The backends able to answer a read, shared by the levels that replicate. */
final class ReadCandidates {
    private ReadCandidates() {}

    /**
     * Enabled backends holding every table the read uses; any enabled backend when the tables are
     * unknown (a read cannot damage anything, and one that names a table the backend lacks fails
     * there). Never empty.
     */
    static <B extends BackendView> List<B> holders(Request request, List<B> backends)
            throws NoBackendAvailableException {
        List<B> holders = request.touchesEverything()
                ? TableHolders.enabled(backends)
                : TableHolders.enabledHoldingAll(request.tablesRead(), backends);
        if (holders.isEmpty()) {
            throw TableHolders.whyNoneHoldsAll(request.tablesRead(), backends);
        }
        return holders;
    }

    /**
     * Of the holders, those the request's transaction already runs on, once it has written: there the
     * read sees the transaction's own writes and needs no new connection. Empty otherwise.
     */
    static <B extends BackendView> List<B> inTransaction(Request request, List<B> holders) {
        if (!request.transactionHasWritten() || request.transactionBackends().isEmpty()) {
            return List.of();
        }
        List<B> in = new ArrayList<>(holders.size());
        for (B b : holders) {
            if (request.transactionBackends().contains(b.name())) {
                in.add(b);
            }
        }
        return in;
    }
}
