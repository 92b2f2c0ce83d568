package org.raidb.controller.analysis;

import java.util.List;

/**
 * What the analyser caches for one SQL text. Whether a function the text calls may write is not
 * cached: the backends' catalogues change with function DDL. The two possible answers are, and
 * {@link #resolve} picks one at each execution from what the catalogue says now.
 *
 * @param plain the analysis when every function it calls only reads
 * @param ifCallsWrite the analysis when one of them may write: a write on every backend, ordered
 *     against every other write
 * @param calls the names of the functions whose volatility decides; empty for most statements
 */
record Analysis(AnalyzedStatement plain, AnalyzedStatement ifCallsWrite, List<String> calls) {

    static Analysis of(AnalyzedStatement a) {
        return new Analysis(a, a, List.of());
    }

    AnalyzedStatement resolve(FunctionVolatility functions) {
        for (String name : calls) {
            if (functions.mayWrite(name)) {
                return ifCallsWrite;
            }
        }
        return plain;
    }
}
