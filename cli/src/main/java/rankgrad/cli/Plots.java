package rankgrad.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** Shared plumbing of the PNG charts: a line chart with a legend, and an atomic write. */
final class Plots {
    private Plots() {
    }

    /** Writes a PNG into a file; given the path to write to, which ends in ".png". */
    @FunctionalInterface
    interface Encoder {
        void encode(String pngPath) throws IOException;
    }

    /** An 800 x 500 line chart with axis titles and the legend inside, lower right. */
    static XYChart lineChart(String title, String xAxis, String yAxis) {
        System.setProperty("java.awt.headless", "true");
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        // XChart's default spacing crowds five-digit tick labels on an 800-pixel axis (it ignores the hint
        // when all x values lie on one even grid: it then ticks data points).
        chart.getStyler().setXAxisTickMarkSpacingHint(120);
        return chart;
    }

    /** Saves one chart as {@code png}. */
    static void save(XYChart chart, Path png) throws IOException {
        write(png, tmp -> BitmapEncoder.saveBitmap(chart, tmp, BitmapEncoder.BitmapFormat.PNG));
    }

    /**
     * Runs {@code encoder} on a temporary file beside {@code png} and renames it, so a reader never
     * sees a half-written image.
     */
    static void write(Path png, Encoder encoder) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Path abs = png.toAbsolutePath();
        Files.createDirectories(abs.getParent());
        Path tmp = abs.resolveSibling("." + abs.getFileName() + ".tmp.png");
        encoder.encode(tmp.toString());
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
