package org.raidb.tpcw.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.raidb.tpcw.interactions.BestSellersVariant;
import org.raidb.tpcw.interactions.Mix;
import org.raidb.tpcw.schema.Scale;

/** What {@code tpcw bench} measures and how. */
public record BenchSettings(
        List<Mix> mixes,
        List<BenchConfig> configs,
        List<Integer> backends,
        Scale scale,
        int sessions,
        Duration recordDuration,
        double backendCpu,
        BestSellersVariant bestSellers,
        long seed,
        Path outDir) {

    public int maxBackends() {
        return backends.stream().mapToInt(Integer::intValue).max().orElse(1);
    }
}
