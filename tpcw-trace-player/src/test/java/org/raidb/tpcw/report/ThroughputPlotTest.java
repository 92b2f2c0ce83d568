package org.raidb.tpcw.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plot is a PNG that decodes, of the documented size, with each configuration's line drawn in its colour. */
class ThroughputPlotTest {
    @TempDir
    Path dir;

    @Test
    void writesADecodablePngWithOneColouredLinePerConfiguration() throws Exception {
        Map<String, SortedMap<Integer, Double>> series = new LinkedHashMap<>();
        series.put("single", new TreeMap<>(Map.of(1, 20_000.0)));
        series.put("raidb1-lprf", new TreeMap<>(Map.of(1, 18_000.0, 2, 36_000.0, 3, 40_000.0, 4, 41_000.0)));
        Path png = dir.resolve("plots/tpcw-browsing.png");

        ThroughputPlot.write("TPC-W browsing mix", series, 4, png);

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as("decodes as an image").isNotNull();
        assertThat(image.getWidth()).isEqualTo(800);
        assertThat(image.getHeight()).isEqualTo(500);
        assertThat(countPixels(image, 0x1f77b4))
                .as("pixels of the first series' colour")
                .isGreaterThan(50);
        assertThat(countPixels(image, 0xd62728))
                .as("pixels of the second series' colour")
                .isGreaterThan(200);
    }

    private static int countPixels(BufferedImage image, int rgb) {
        int n = 0;
        for (int x = 0; x < image.getWidth(); x++) {
            for (int y = 0; y < image.getHeight(); y++) {
                if ((image.getRGB(x, y) & 0xffffff) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }
}
