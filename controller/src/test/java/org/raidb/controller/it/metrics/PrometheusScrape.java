package org.raidb.controller.it.metrics;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.hawkular.agent.prometheus.text.TextPrometheusMetricDataParser;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Gauge;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;

/**
 * A {@code /metrics} answer as a Prometheus text-format parser (Hawkular's) reads it: metric families by
 * name, then their series by labels. A line the parser cannot read fails the parse.
 */
final class PrometheusScrape {
    private final Map<String, MetricFamily> families = new LinkedHashMap<>();

    private PrometheusScrape() {}

    static PrometheusScrape parse(String text) throws IOException {
        PrometheusScrape scrape = new PrometheusScrape();
        TextPrometheusMetricDataParser parser =
                new TextPrometheusMetricDataParser(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        for (MetricFamily f = parser.parse(); f != null; f = parser.parse()) {
            if (scrape.families.put(f.getName(), f) != null) {
                throw new IOException("metric family " + f.getName() + " appears twice");
            }
        }
        return scrape;
    }

    Map<String, MetricFamily> families() {
        return families;
    }

    MetricFamily family(String name) {
        MetricFamily f = families.get(name);
        if (f == null) {
            throw new AssertionError("no metric family " + name + " among " + families.keySet());
        }
        return f;
    }

    /** The series of the family whose labels include every one given ("k", "v", ...). */
    Optional<Metric> series(String family, String... labels) {
        return family(family).getMetrics().stream()
                .filter(m -> {
                    for (int i = 0; i < labels.length; i += 2) {
                        if (!labels[i + 1].equals(m.getLabels().get(labels[i]))) {
                            return false;
                        }
                    }
                    return true;
                })
                .findFirst();
    }

    /** A counter's or gauge's value, a histogram's count; 0 when the series is absent. */
    double value(String family, String... labels) {
        return series(family, labels)
                .map(m -> {
                    if (m instanceof Counter c) {
                        return c.getValue();
                    }
                    if (m instanceof Gauge g) {
                        return g.getValue();
                    }
                    if (m instanceof Histogram h) {
                        return (double) h.getSampleCount();
                    }
                    throw new AssertionError(family + " is a " + m.getClass().getSimpleName());
                })
                .orElse(0.0);
    }
}
