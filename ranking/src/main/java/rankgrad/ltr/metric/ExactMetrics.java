package rankgrad.ltr.metric;

import java.util.Arrays;

/**
 * The exact metric formulas of DESIGN section 3.1 on one query's labels already in ranked order
 * (best first). {@link Metric} ranks the scores and calls these; losses use {@link #idealDcg} for
 * their normalization, so training and evaluation share one IDCG.
 *
 * <p>Notation: {@code ranked[r-1]} is the label y_(r) of the document at rank r, b = [y &gt; 0],
 * gain g(y) = 2^y - 1, discount D(r) = 1 / log2(1 + r). A cutoff k larger than the list length m
 * sums over the m documents; only precision keeps k as its divisor.
 *
 * <p>Thread-safety: stateless.
 */
public final class ExactMetrics {
    private static final double LN2 = Math.log(2.0);
    /** D(r) for r below this comes from a table (the same expression, computed once). */
    private static final int DISCOUNTS = 1 << 14;
    private static final double[] DISCOUNT = new double[DISCOUNTS];
    /** Integer grades 0..MAX_COUNTED_GRADE: the ideal order is counted, not sorted (O(m)). */
    private static final int MAX_COUNTED_GRADE = 30;

    static {
        for (int r = 1; r < DISCOUNTS; r++) {
            DISCOUNT[r] = LN2 / Math.log1p(r);
        }
    }

    private ExactMetrics() {
    }

    /** g(y) = 2^y - 1. */
    public static double gain(double label) {
        int g = (int) label;
        return g == label && g >= 0 && g <= MAX_COUNTED_GRADE ? (1 << g) - 1 : Math.pow(2.0, label) - 1.0;
    }

    /** D(r) = 1 / log2(1 + r) for the 1-based rank r. */
    public static double discount(int rank) {
        return rank > 0 && rank < DISCOUNTS ? DISCOUNT[rank] : LN2 / Math.log1p(rank);
    }

    /**
     * D(r) = 1 / log2(1 + r) for a real rank variable r &gt; 0 (the differentiable metrics and
     * smoothed DCG of DESIGN sections 3.3-3.4); an integer r, as exact ranks are, comes from the
     * same table as {@link #discount(int)}.
     */
    public static double discount(double r) {
        int n = (int) r;
        return n == r ? discount(n) : LN2 / Math.log1p(r);
    }

    /**
     * dD/dr = -1 / (ln 2 (1 + r) log2(1 + r)^2) = -D(r)^2 / (ln 2 (1 + r)). Yu et al.'s Appendix B
     * Eq. 32 drops the factor 1 / ln 2 (DESIGN section 3.3).
     */
    public static double discountSlope(double r) {
        double d = discount(r);
        return -d * d / (LN2 * (1.0 + r));
    }

    /** DCG@k = sum_{r &lt;= min(k, m)} g(y_(r)) D(r). */
    public static double dcg(float[] ranked, int k) {
        return dcg(ranked, k, Gain.EXPONENTIAL);
    }

    /** DCG@k with the gain g of {@code gain}. */
    public static double dcg(float[] ranked, int k, Gain gain) {
        int n = Math.min(k, ranked.length);
        double sum = 0;
        for (int r = 1; r <= n; r++) {
            sum += gain.of(ranked[r - 1]) * discount(r);
        }
        return sum;
    }

    /**
     * IDCG@k: DCG@k of {@code labels[from .. from+m)} sorted descending (the top min(k, m) labels).
     * Integer grades are counted instead of sorted, summing the same terms in the same order.
     */
    public static double idealDcg(float[] labels, int from, int m, int k) {
        return idealDcg(labels, from, m, k, Gain.EXPONENTIAL);
    }

    /** IDCG@k with the gain g of {@code gain}. */
    public static double idealDcg(float[] labels, int from, int m, int k, Gain gain) {
        int[] count = new int[MAX_COUNTED_GRADE + 1];
        for (int i = 0; i < m; i++) {
            float y = labels[from + i];
            int g = (int) y;
            if (g != y || g < 0 || g > MAX_COUNTED_GRADE) {
                return dcg(descending(labels, from, m), k, gain);
            }
            count[g]++;
        }
        int n = Math.min(k, m);
        double sum = 0;
        int rank = 1;
        for (int g = MAX_COUNTED_GRADE; g >= 0 && rank <= n; g--) {
            for (int c = 0; c < count[g] && rank <= n; c++) {
                sum += gain.of(g) * discount(rank++);
            }
        }
        return sum;
    }

    /** P@k = (1/k) sum_{r &lt;= min(k, m)} b_(r); the divisor stays k when k &gt; m. */
    public static double precision(float[] ranked, int k) {
        checkCutoff(k);
        return relevantInTop(ranked, k) / (double) k;
    }

    /**
     * AP@k = sum_{r &lt;= min(k, m)} b_(r) P@r / min(k, |relevant|) (Yu Eq. 7 with a cutoff), 0 when
     * there is no relevant document. With k &gt;= m this is AP without cutoff, divided by |relevant|.
     */
    public static double averagePrecision(float[] ranked, int k) {
        checkCutoff(k);
        int relevant = relevantInTop(ranked, ranked.length);
        return relevant == 0 ? 0 : precisionSum(ranked, k) / Math.min(k, relevant);
    }

    /**
     * ERR@k = sum_{r &lt;= min(k, m)} R_(r) / r prod_{i &lt; r} (1 - R_(i)), R(y) = (2^y - 1) / 2^ymax
     * (Chapelle et al. 2009; DESIGN section 3.1).
     *
     * @throws IllegalArgumentException if a label exceeds ymax (R would leave [0, 1])
     */
    public static double err(float[] ranked, int k, double ymax) {
        int n = Math.min(k, ranked.length);
        double scale = Math.pow(2.0, ymax);
        double notStopped = 1;
        double sum = 0;
        for (int r = 1; r <= n; r++) {
            float y = ranked[r - 1];
            if (y > ymax) {
                throw new IllegalArgumentException("label " + y + " exceeds the grade scale maximum ymax = " + ymax
                        + "; set MetricConventions.withYmax to the data's largest grade");
            }
            double stop = gain(y) / scale;
            sum += notStopped * stop / r;
            notStopped *= 1 - stop;
        }
        return sum;
    }

    /** Ideal ERR@k: ERR@k of {@code labels[from .. from+m)} sorted descending. */
    public static double idealErr(float[] labels, int from, int m, int k, double ymax) {
        return err(descending(labels, from, m), k, ymax);
    }

    /**
     * trec_eval's {@code map_cut.k}: sum_{r &lt;= min(k, m)} b_(r) P@r / |relevant| (the divisor is
     * every relevant document, not min(k, |relevant|) as in {@link #averagePrecision}), 0 when there
     * is no relevant document.
     */
    public static double averagePrecisionOverAllRelevant(float[] ranked, int k) {
        checkCutoff(k);
        int relevant = relevantInTop(ranked, ranked.length);
        return relevant == 0 ? 0 : precisionSum(ranked, k) / relevant;
    }

    /** sum_{r &lt;= min(k, m)} b_(r) P@r. */
    private static double precisionSum(float[] ranked, int k) {
        int n = Math.min(k, ranked.length);
        int hits = 0;
        double sum = 0;
        for (int r = 1; r <= n; r++) {
            if (ranked[r - 1] > 0) {
                hits++;
                sum += hits / (double) r;
            }
        }
        return sum;
    }

    /** 1 / (rank of the first relevant document) if it is within the top min(k, m), else 0. */
    public static double reciprocalRank(float[] ranked, int k) {
        int n = Math.min(k, ranked.length);
        for (int r = 1; r <= n; r++) {
            if (ranked[r - 1] > 0) {
                return 1.0 / r;
            }
        }
        return 0;
    }

    /** Number of relevant documents (label &gt; 0) among the top min(k, m). */
    public static int relevantInTop(float[] ranked, int k) {
        int n = Math.min(k, ranked.length);
        int count = 0;
        for (int r = 0; r < n; r++) {
            if (ranked[r] > 0) {
                count++;
            }
        }
        return count;
    }

    /** {@code labels[from .. from+m)} sorted descending, as a new array. */
    public static float[] descending(float[] labels, int from, int m) {
        float[] sorted = Arrays.copyOfRange(labels, from, from + m);
        Arrays.sort(sorted);
        for (int i = 0, j = m - 1; i < j; i++, j--) {
            float t = sorted[i];
            sorted[i] = sorted[j];
            sorted[j] = t;
        }
        return sorted;
    }

    private static void checkCutoff(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("cutoff k must be >= 1, got " + k);
        }
    }
}
