package rankgrad.cli;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Learning curves as a PNG, like Yu et al. Fig. 2: the training objective per epoch on the left,
 * validation and test NDCG@5 per epoch on the right (one line per run when several are compared).
 */
final class Curves {
    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b)};
    private Curves() {
    }

    /** One run's per-epoch series. */
    record Run(String name, List<Integer> epochs, List<Double> trainLoss, List<Double> valid, List<Double> test) {
        Run(String name) {
            this(name, new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }
    }

    /**
     * Writes the panels to {@code png} (a temporary file, then renamed): the training objective
     * only when {@code withObjective} (losses of different runs live on different scales), and the
     * metric with validation solid and test dashed in one colour per run.
     */
    static void write(List<Run> runs, String metricName, boolean withObjective, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYChart loss = new XYChartBuilder().width(640).height(440).title("training objective")
                .xAxisTitle("epoch").yAxisTitle("mean training loss").build();
        XYChart metric = new XYChartBuilder().width(640).height(440).title(metricName + " per epoch")
                .xAxisTitle("epoch").yAxisTitle(metricName).build();
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            if (r.epochs().isEmpty()) {
                continue;
            }
            Color color = PALETTE[i % PALETTE.length];
            XYSeries l = loss.addSeries(r.name(), r.epochs(), r.trainLoss());
            l.setMarker(SeriesMarkers.NONE);
            l.setLineColor(color);
            XYSeries v = metric.addSeries(r.name() + " validation", r.epochs(), r.valid());
            v.setMarker(SeriesMarkers.NONE);
            v.setLineColor(color);
            if (!r.test().isEmpty()) {
                XYSeries t = metric.addSeries(r.name() + " test", r.epochs(), r.test());
                t.setMarker(SeriesMarkers.NONE);
                t.setLineColor(color);
                t.setLineStyle(SeriesLines.DASH_DASH);
            }
        }
        if (withObjective) {
            Plots.write(png, out -> BitmapEncoder.saveBitmap(List.of(loss, metric), 1, 2, out, BitmapEncoder.BitmapFormat.PNG));
        } else {
            Plots.save(metric, png);
        }
    }
}
