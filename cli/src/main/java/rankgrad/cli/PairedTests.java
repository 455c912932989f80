package rankgrad.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import rankgrad.ltr.eval.Significance;

/**
 * {@code eval --baseline}: every ranker against one chosen baseline, per metric, with the mean
 * difference over the queries both have a value for and the two-sided p-values of the Wilcoxon
 * signed-rank test and of the paired t-test (Smucker, Allan and Carterette 2007 compare both for IR
 * significance testing). A mark tells the direction where the Wilcoxon p is below {@value #ALPHA}.
 */
final class PairedTests {
    /** The level of the marks, the same as the comparison table's. */
    static final double ALPHA = ComparisonTable.ALPHA;

    private PairedTests() {
    }

    /**
     * A Markdown table: one row per ranker other than the baseline, one column per metric; values
     * are {@code perQuery[row][metric][query]} (NaN: excluded).
     */
    static String markdown(List<String> rows, int baseline, List<String> metrics, double[][][] perQuery) {
        List<String[]> text = new ArrayList<>();
        String[] header = new String[metrics.size() + 1];
        header[0] = "ranker vs " + rows.get(baseline);
        for (int c = 0; c < metrics.size(); c++) {
            header[c + 1] = metrics.get(c);
        }
        text.add(header);
        for (int r = 0; r < rows.size(); r++) {
            if (r == baseline) {
                continue;
            }
            String[] line = new String[metrics.size() + 1];
            line[0] = rows.get(r);
            for (int c = 0; c < metrics.size(); c++) {
                line[c + 1] = cell(perQuery[r][c], perQuery[baseline][c]);
            }
            text.add(line);
        }
        return MarkdownTable.of(text);
    }

    /** "+0.0123 (W p=0.0040, t p=0.0031) better". */
    static String cell(double[] values, double[] baseline) {
        List<double[]> pairs = new ArrayList<>();
        for (int q = 0; q < values.length; q++) {
            if (!Double.isNaN(values[q]) && !Double.isNaN(baseline[q])) {
                pairs.add(new double[] {values[q], baseline[q]});
            }
        }
        if (pairs.isEmpty()) {
            return "n/a";
        }
        double[] a = pairs.stream().mapToDouble(p -> p[0]).toArray();
        double[] b = pairs.stream().mapToDouble(p -> p[1]).toArray();
        double diff = 0;
        for (int i = 0; i < a.length; i++) {
            diff += a[i] - b[i];
        }
        diff /= a.length;
        double w = Significance.wilcoxonSignedRank(a, b);
        double t = Significance.pairedT(a, b);
        String mark = w < ALPHA ? (diff > 0 ? " better" : " worse") : "";
        return String.format(Locale.ROOT, "%+.4f (W p=%s, t p=%s)%s", diff, PerQueryTest.format(w), PerQueryTest.format(t), mark);
    }

    /** What the table says. */
    static String legend(String baseline) {
        return "Each cell: mean difference to " + baseline + " over the queries both have a value for, and two-sided"
                + " p-values of the Wilcoxon signed-rank test (W) and the paired t-test (t); better/worse: W p < " + ALPHA + ".";
    }
}
