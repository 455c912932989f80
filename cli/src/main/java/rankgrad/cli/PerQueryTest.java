package rankgrad.cli;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.IntStream;
import rankgrad.ltr.eval.Significance;

/**
 * Significance of the difference between two rankers' per-query metric values on the same
 * queries: the two-sided Wilcoxon signed-rank test over the queries both count (a query without
 * relevant documents is NaN under the default conventions and is left out of both samples).
 */
final class PerQueryTest {
    private PerQueryTest() {
    }

    /** The two-sided p-value for per-query values {@code a} and {@code b} of the same queries. */
    static double wilcoxon(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("per-query values of different query sets: " + a.length + " vs " + b.length);
        }
        int[] counted = IntStream.range(0, a.length).filter(q -> !Double.isNaN(a[q]) && !Double.isNaN(b[q])).toArray();
        return Significance.wilcoxonSignedRank(Arrays.stream(counted).mapToDouble(q -> a[q]).toArray(),
                Arrays.stream(counted).mapToDouble(q -> b[q]).toArray());
    }

    /** A p-value for a table: four decimals, or scientific below 1e-4. */
    static String format(double p) {
        return p < 1e-4 ? String.format(Locale.ROOT, "%.1e", p) : String.format(Locale.ROOT, "%.4f", p);
    }
}
