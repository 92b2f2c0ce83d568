package org.raidb.tpcw.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import javax.imageio.ImageIO;

/**
 * Throughput (SQL requests per minute) against number of backends, one line per configuration, in
 * the manner of the paper's Figures 13-15. Drawn with java.awt (headless), no plotting library.
 */
public final class ThroughputPlot {

    private static final int WIDTH = 800;
    private static final int HEIGHT = 500;
    private static final int LEFT = 90;
    private static final int RIGHT = 190;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final List<Color> COLORS = List.of(
            new Color(0x1f77b4),
            new Color(0xd62728),
            new Color(0x2ca02c),
            new Color(0xff7f0e),
            new Color(0x9467bd),
            new Color(0x8c564b));

    private ThroughputPlot() {}

    /** {@code series}: configuration to (backends to requests per minute), drawn in iteration order. */
    public static void write(String title, Map<String, SortedMap<Integer, Double>> series, int maxBackends, Path png)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        double maxY = series.values().stream()
                .flatMap(m -> m.values().stream())
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(1);
        double top = niceCeiling(maxY * 1.1);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;

        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int i = 0; i <= 5; i++) { // horizontal grid and y labels
            double value = top * i / 5;
            int y = TOP + plotH - (int) (plotH * i / 5.0);
            g.setColor(new Color(0xdddddd));
            g.drawLine(LEFT, y, LEFT + plotW, y);
            g.setColor(Color.BLACK);
            String label = String.format(Locale.ROOT, "%,.0f", value);
            g.drawString(label, LEFT - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        for (int n = 1; n <= maxBackends; n++) { // x ticks
            int x = xOf(n, maxBackends, plotW);
            g.drawLine(x, TOP + plotH, x, TOP + plotH + 5);
            g.drawString(Integer.toString(n), x - 3, TOP + plotH + 20);
        }
        g.drawRect(LEFT, TOP, plotW, plotH);
        g.drawString("Number of database backends", LEFT + plotW / 2 - 80, HEIGHT - 15);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.drawString("Throughput in SQL requests per minute", -(TOP + plotH / 2 + 110), 20);
        rotated.dispose();

        int index = 0;
        for (Map.Entry<String, SortedMap<Integer, Double>> entry : series.entrySet()) {
            Color color = COLORS.get(index % COLORS.size());
            g.setColor(color);
            g.setStroke(new BasicStroke(2f));
            int previousX = -1;
            int previousY = -1;
            for (Map.Entry<Integer, Double> point : entry.getValue().entrySet()) {
                int x = xOf(point.getKey(), maxBackends, plotW);
                int y = TOP + plotH - (int) (plotH * point.getValue() / top);
                g.fillRect(x - 4, y - 4, 8, 8);
                if (previousX >= 0) {
                    g.drawLine(previousX, previousY, x, y);
                }
                previousX = x;
                previousY = y;
            }
            int legendY = TOP + 20 + 22 * index;
            g.fillRect(LEFT + plotW + 15, legendY - 8, 8, 8);
            g.drawLine(LEFT + plotW + 10, legendY - 4, LEFT + plotW + 28, legendY - 4);
            g.setColor(Color.BLACK);
            g.drawString(entry.getKey(), LEFT + plotW + 35, legendY);
            index++;
        }
        g.dispose();
        PlayReport.createParent(png);
        ImageIO.write(image, "png", png.toFile());
    }

    private static int xOf(int backends, int maxBackends, int plotW) {
        return LEFT + (int) (plotW * (backends - 0.5) / Math.max(1, maxBackends));
    }

    /** 1, 2 or 5 times a power of ten, at least {@code value}. */
    private static double niceCeiling(double value) {
        double power = Math.pow(10, Math.floor(Math.log10(Math.max(1, value))));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }
}
