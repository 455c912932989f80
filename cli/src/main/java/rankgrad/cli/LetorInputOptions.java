package rankgrad.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricKind;

/**
 * How a command reads one LETOR file (a picocli mixin shared by eval, predict and stats):
 * {@code --groups FILE} names the group sizes of a libsvm file without {@code qid:} (without it,
 * LightGBM's {@code FILE.query} or XGBoost's {@code FILE.group} beside the data is used), and
 * {@link #options(List, double)} makes the reader refuse grades above ERR's ymax, naming file and
 * line, when a metric needs it.
 */
public final class LetorInputOptions {
    @Option(names = "--groups", paramLabel = "FILE", description = "group sizes (one per line) of a libsvm file without"
            + " qid: (default: FILE.query or FILE.group beside the data, as LightGBM and XGBoost write them)")
    Path groups;

    /** The reader's options, with no grade limit. */
    LetorOptions options() {
        return LetorOptions.DEFAULT.withGroups(groups);
    }

    /** The reader's options, refusing grades above {@code ymax} when one of {@code metrics} is ERR or nERR. */
    LetorOptions options(List<Metric> metrics, double ymax) {
        return withGradeLimit(options(), metrics, ymax);
    }

    /** {@code base}, refusing grades above {@code ymax} when one of {@code metrics} is ERR or nERR. */
    static LetorOptions withGradeLimit(LetorOptions base, List<Metric> metrics, double ymax) {
        return needsYmax(metrics) ? base.withYmax(ymax) : base;
    }

    /**
     * Whether a metric's value needs every grade at most ymax (ERR's R(y) = (2^y - 1) / 2^ymax), so
     * that the reader must refuse grades above it.
     */
    public static boolean needsYmax(List<Metric> metrics) {
        return metrics.stream().anyMatch(m -> m.kind() == MetricKind.ERR || m.kind() == MetricKind.NERR);
    }
}
