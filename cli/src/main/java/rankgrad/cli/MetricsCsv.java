package rankgrad.cli;

import java.util.List;
import java.util.Locale;
import rankgrad.ltr.train.EpochResult;

/**
 * A training run's {@code metrics.csv}: one row per epoch, "epoch,train_loss,valid_METRIC[,test_METRIC],best",
 * values with six decimals. {@code rankgrad train} and the Spark module's {@code train} write it
 * alike, so a run's curves read the same wherever it trained.
 */
public final class MetricsCsv {
    private MetricsCsv() {
    }

    /**
     * The file's text for {@code history}, selected on {@code metric}; the test column only when
     * the run had a test set.
     */
    public static String of(List<EpochResult> history, String metric, boolean test) {
        StringBuilder csv = new StringBuilder("epoch,train_loss,valid_" + metric + (test ? ",test_" + metric : "")
                + ",best\n");
        for (EpochResult r : history) {
            csv.append(String.format(Locale.ROOT, "%d,%.6f,%.6f%s,%s%n", r.epoch(), r.trainLoss(), r.validation(),
                    test ? String.format(Locale.ROOT, ",%.6f", r.test()) : "", r.best()));
        }
        return csv.toString();
    }
}
