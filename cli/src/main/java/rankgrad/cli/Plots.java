package rankgrad.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import rankgrad.ltr.io.AtomicWrite;

/** Shared plumbing of the PNG charts: a line chart with a legend, and an atomic write. */
final class Plots {
    private Plots() {
    }

    /** Writes a PNG image to a stream. */
    @FunctionalInterface
    interface Encoder {
        void encode(OutputStream png) throws IOException;
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
        write(png, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
    }

    /**
     * Writes the image {@code encoder} makes to {@code png} atomically ({@link AtomicWrite}: a
     * temporary file of its own beside it, then a rename), so a reader never sees a half-written
     * image and two writers never share a temporary file.
     */
    static void write(Path png, Encoder encoder) throws IOException {
        System.setProperty("java.awt.headless", "true");
        AtomicWrite.write(png, encoder::encode);
    }
}
