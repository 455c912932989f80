package rankgrad.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import rankgrad.ltr.metric.Metric;

/**
 * {@code tune}'s leaderboard: every trial, the last rung first, best validation mean first; the
 * validation mean over seeds with its sample standard deviation, the ensemble's own validation, and
 * (only when a test file was given) the test score of the last rung's ensembles.
 */
final class TuneLeaderboard {
    private TuneLeaderboard() {
    }

    /** {@code test[i]} is the score of the last rung's i-th trial, or null without a test file. */
    static String markdown(List<TuneCommand.Trial> trials, Metric selection, double[] test) {
        int lastRung = trials.stream().mapToInt(TuneCommand.Trial::rung).max().orElse(0);
        List<TuneCommand.Trial> lastTrials = trials.stream().filter(t -> t.rung() == lastRung).toList();
        List<TuneCommand.Trial> sorted = new ArrayList<>(trials);
        sorted.sort(Comparator.comparingInt(TuneCommand.Trial::rung).reversed()
                .thenComparing(Comparator.comparingDouble(TuneCommand.Trial::mean).reversed()));
        List<String[]> lines = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("recipe", "rung", "epochs", "seeds", "valid " + selection
                + " mean ± sd", "ensemble valid"));
        if (test != null) {
            header.add("test " + selection + " (ensemble)");
        }
        lines.add(header.toArray(String[]::new));
        for (TuneCommand.Trial t : sorted) {
            List<String> row = new ArrayList<>(List.of(t.recipe().label(), Integer.toString(t.rung()),
                    Integer.toString(t.epochs()), Integer.toString(t.seeds()), t.error() != null ? "failed" : meanSd(t),
                    t.seeds() > 1 && t.error() == null ? TuneCommand.fmt(t.ensembleValidation()) : ""));
            if (test != null) {
                int i = lastTrials.indexOf(t);
                row.add(i >= 0 ? TuneCommand.fmt(test[i]) : "");
            }
            lines.add(row.toArray(String[]::new));
        }
        return MarkdownTable.of(lines);
    }

    private static String meanSd(TuneCommand.Trial t) {
        double[] v = t.validation();
        if (v.length == 1) {
            return TuneCommand.fmt(v[0]);
        }
        double m = t.mean();
        double ss = 0;
        for (double x : v) {
            ss += (x - m) * (x - m);
        }
        return String.format(Locale.ROOT, "%.4f ± %.4f", m, Math.sqrt(ss / (v.length - 1)));
    }
}
