package rankgrad.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import rankgrad.ltr.train.EpochResult;

/**
 * The training progress display: a live bar (epoch, batches, loss, validation metric, ETA) redrawn
 * in place on a terminal, and plain lines, one per epoch, when the output is not a terminal. A
 * resumed run first says so and lists the epochs its checkpoint had finished.
 */
final class Progress {
    private final PrintWriter out;
    private final boolean live;
    private final int epochs;
    private final String metric;
    private final long started = System.nanoTime();
    private double lastValid = Double.NaN;
    /** The fraction of the run done before this process started (a resumed run's checkpoint). */
    private double doneBefore;

    Progress(PrintWriter out, boolean live, int epochs, String metric) {
        this.out = out;
        this.live = live;
        this.epochs = epochs;
        this.metric = metric;
    }

    void resumed(Path checkpoint, List<EpochResult> done, boolean finished) {
        if (finished) {
            out.printf(Locale.ROOT, "%s: this run had finished after %d of %d epochs; its results:%n", checkpoint,
                    done.size(), epochs);
        } else {
            out.printf(Locale.ROOT, "resuming at epoch %d of %d from %s%n", done.size() + 1, epochs, checkpoint);
        }
        for (EpochResult r : done) {
            epoch(r, true);
        }
        doneBefore = (double) done.size() / epochs;
    }

    void batch(int epoch, int batch, int batches, double loss) {
        if (!live) {
            return;
        }
        double done = (epoch - 1 + (double) batch / batches) / epochs;
        int width = 24;
        int filled = (int) Math.round(done * width);
        out.printf(Locale.ROOT, "\repoch %d/%d [%s%s] batch %d/%d loss %.4f %s %s ETA %s   ", epoch, epochs,
                "#".repeat(filled), ".".repeat(width - filled), batch, batches, loss, metric,
                Double.isNaN(lastValid) ? "-" : String.format(Locale.ROOT, "%.4f", lastValid), eta(done));
        out.flush();
    }

    /** One epoch's line; {@code fromCheckpoint} for an epoch an earlier run trained (no time is shown). */
    void epoch(EpochResult r, boolean fromCheckpoint) {
        lastValid = r.validation();
        if (live) {
            out.print("\r");
        }
        out.printf(Locale.ROOT, "epoch %3d  loss %.5f  valid %s %.4f%s%s  %s%s%n", r.epoch(), r.trainLoss(), metric,
                r.validation(), Double.isNaN(r.test()) ? "" : String.format(Locale.ROOT, "  test %.4f", r.test()),
                r.best() ? " *" : "  ", fromCheckpoint ? "(checkpoint)" : duration(r.seconds()),
                live ? "            " : "");
        out.flush();
    }

    /**
     * A duration with two significant digits: "1.3s", "12s", "140s"; below one second in
     * milliseconds, "48ms", "3.1ms" (an epoch of a small data set is not "0.0s").
     */
    static String duration(double seconds) {
        if (seconds < 1) {
            return significant(seconds * 1000) + "ms";
        }
        return significant(seconds) + "s";
    }

    private static String significant(double v) {
        if (!(v > 0)) {
            return "0";
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(2));
        return d.scale() <= 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }

    private String eta(double done) {
        if (done <= doneBefore) {
            return "?";
        }
        long secs = Math.round((System.nanoTime() - started) / 1e9 * (1 - done) / (done - doneBefore));
        return secs >= 60 ? (secs / 60) + "m" + String.format("%02d", secs % 60) + "s" : secs + "s";
    }
}
