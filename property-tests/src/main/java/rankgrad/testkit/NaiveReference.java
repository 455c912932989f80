package rankgrad.testkit;

import java.util.Arrays;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.rank.RankMetric;

/**
 * Straightforward float64 references for one query, written from the papers' equations
 * independently of rankgrad's implementation, to test a rank operator or pairwise backend against:
 * O(m^2) loops over pairs, metrics as literal sums (Yu et al. 2020, Eq. 11-16, 20, 21; docs/design.md
 * §3.2 and 3.3). Slow by design; use them on the small queries of {@link RankingCases}.
 *
 * <pre>{@code
 * // a backend's approximate ranks of one query against the pairwise definition
 * double[] expected = NaiveReference.approxRanks(c.scoresOf(q), alpha);
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class NaiveReference {
    private NaiveReference() {
    }

    /** sigma(x) = 1 / (1 + e^-x). */
    public static double sigmoid(double x) {
        return 1.0 / (1.0 + Math.exp(-x));
    }

    /**
     * Exact twin-sigmoid ranks by Yu Eq. 12, pair by pair: r_i = 1 + #{j != i : s_j &gt; s_i, or s_j == s_i
     * and p_j &gt; p_i}, with sigma^+ the step and ties broken by the permutation p of 0..m-1 (the higher
     * p ranks first among tied documents).
     */
    public static int[] twinSigmoidRanks(double[] s, int[] p) {
        int m = s.length;
        int[] r = new int[m];
        for (int i = 0; i < m; i++) {
            r[i] = 1;
            for (int j = 0; j < m; j++) {
                if (j != i && (s[j] > s[i] || (s[j] == s[i] && p[j] > p[i]))) {
                    r[i]++;
                }
            }
        }
        return r;
    }

    /**
     * pi_b(i) = 1 + sum_{j != i} (1 - sigma(alpha (s_i - s_j))): the smooth rank of the twin-sigmoid
     * backward (alpha = alpha_b), equal to ApproxNDCG's pi^-(i) = 1 + sum_{j != i} sigma(alpha (s_j - s_i))
     * (Bruch Eq. 6).
     */
    public static double[] approxRanks(double[] s, double alpha) {
        int m = s.length;
        double[] r = new double[m];
        for (int i = 0; i < m; i++) {
            r[i] = 1;
            for (int j = 0; j < m; j++) {
                if (j != i) {
                    r[i] += 1 - sigmoid(alpha * (s[i] - s[j]));
                }
            }
        }
        return r;
    }

    /** Documents by position from exact ranks: {@code order[ranks[i] - 1] = i}. */
    public static int[] orderOf(int[] ranks) {
        int[] order = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            order[ranks[i] - 1] = i;
        }
        return order;
    }

    /**
     * The metric as a function of rank variables r with positions fixed by {@code order}: Yu Eq.
     * 13 (Pre@k), 14 (AP), 15 (nDCG; nDCG@k its top k positions), 16 (nERR@k, R = (2^y - 1) / 2^ymax),
     * and the reciprocal rank 1 / r_bar of the first relevant position. 0 without relevant documents.
     */
    public static double metric(RankMetric metric, float[] y, double[] r, int[] order) {
        int m = y.length;
        if (Arrays.stream(order).noneMatch(d -> y[d] > 0)) {
            return 0;
        }
        double[] rBar = new double[m];
        double[] b = new double[m];
        for (int p = 0; p < m; p++) {
            rBar[p] = r[order[p]];
            b[p] = y[order[p]] > 0 ? 1 : 0;
        }
        switch (metric) {
            case RankMetric.Precision pre -> {
                double sum = 0;
                for (int i = 1; i <= Math.min(pre.k(), m); i++) {
                    sum += b[i - 1] * i / rBar[i - 1];
                }
                return sum / pre.k();
            }
            case RankMetric.AveragePrecision ap -> {
                double relevant = Arrays.stream(b).sum();
                double sum = 0;
                for (int k = 1; k <= m; k++) {
                    double inner = 0;
                    for (int i = 1; i <= k; i++) {
                        inner += b[i - 1] * i / rBar[i - 1];
                    }
                    sum += b[k - 1] * inner / k;
                }
                return sum / relevant;
            }
            case RankMetric.Ndcg ndcg -> {
                double[] gains = new double[m];
                for (int i = 0; i < m; i++) {
                    gains[i] = Math.pow(2, y[i]) - 1;
                }
                double[] ideal = gains.clone();
                Arrays.sort(ideal);
                double idcg = 0;
                for (int p = 1; p <= m; p++) {
                    idcg += ideal[m - p] / log2(p + 1);
                }
                double dcg = 0;
                for (int i = 0; i < m; i++) {
                    dcg += gains[i] / log2(r[i] + 1);
                }
                return dcg / idcg;
            }
            case RankMetric.NdcgAt ndcg -> {
                double[] ideal = new double[m];
                for (int i = 0; i < m; i++) {
                    ideal[i] = Math.pow(2, y[i]) - 1;
                }
                Arrays.sort(ideal);
                double idcg = 0;
                double dcg = 0;
                for (int p = 1; p <= Math.min(ndcg.k(), m); p++) {
                    idcg += ideal[m - p] / log2(p + 1);
                    dcg += (Math.pow(2, y[order[p - 1]]) - 1) / log2(rBar[p - 1] + 1);
                }
                return dcg / idcg;
            }
            case RankMetric.ReciprocalRank rr -> {
                int first = 0;
                while (b[first] == 0) {
                    first++;
                }
                return 1 / rBar[first];
            }
            case RankMetric.Nerr nerr -> {
                double[] stop = new double[m];
                for (int p = 0; p < m; p++) {
                    stop[p] = (Math.pow(2, y[order[p]]) - 1) / Math.pow(2, nerr.ymax());
                }
                double[] ideal = new double[m];
                for (int i = 0; i < m; i++) {
                    ideal[i] = (Math.pow(2, y[i]) - 1) / Math.pow(2, nerr.ymax());
                }
                Arrays.sort(ideal);
                double err = 0;
                double idealErr = 0;
                for (int j = 1; j <= Math.min(nerr.k(), m); j++) {
                    double reach = 1;
                    double idealReach = 1;
                    for (int i = 1; i < j; i++) {
                        reach *= 1 - stop[i - 1];
                        idealReach *= 1 - ideal[m - i];
                    }
                    err += reach * stop[j - 1] / rBar[j - 1];
                    idealErr += idealReach * ideal[m - j] / j;
                }
                return err / idealErr;
            }
        }
    }

    /** dM/dr_i of {@link #metric}, each term differentiated by hand from the same sums. */
    public static double[] metricGradient(RankMetric metric, float[] y, double[] r, int[] order) {
        int m = y.length;
        double[] grad = new double[m];
        if (Arrays.stream(order).noneMatch(d -> y[d] > 0)) {
            return grad;
        }
        double[] b = new double[m];
        for (int p = 0; p < m; p++) {
            b[p] = y[order[p]] > 0 ? 1 : 0;
        }
        switch (metric) {
            case RankMetric.Precision pre -> {
                for (int i = 1; i <= Math.min(pre.k(), m); i++) {
                    double rb = r[order[i - 1]];
                    grad[order[i - 1]] = -b[i - 1] * i / (rb * rb) / pre.k();
                }
            }
            case RankMetric.AveragePrecision ap -> {
                double relevant = Arrays.stream(b).sum();
                for (int k = 1; k <= m; k++) {
                    for (int i = 1; i <= k; i++) {
                        double rb = r[order[i - 1]];
                        grad[order[i - 1]] -= b[k - 1] / k * b[i - 1] * i / (rb * rb) / relevant;
                    }
                }
            }
            case RankMetric.Ndcg ndcg -> {
                double[] ideal = new double[m];
                for (int i = 0; i < m; i++) {
                    ideal[i] = Math.pow(2, y[i]) - 1;
                }
                Arrays.sort(ideal);
                double idcg = 0;
                for (int p = 1; p <= m; p++) {
                    idcg += ideal[m - p] / log2(p + 1);
                }
                for (int i = 0; i < m; i++) {
                    double l = log2(r[i] + 1);
                    grad[i] = -(Math.pow(2, y[i]) - 1) / (l * l) / ((r[i] + 1) * Math.log(2)) / idcg;
                }
            }
            case RankMetric.NdcgAt ndcg -> {
                double[] ideal = new double[m];
                for (int i = 0; i < m; i++) {
                    ideal[i] = Math.pow(2, y[i]) - 1;
                }
                Arrays.sort(ideal);
                double idcg = 0;
                for (int p = 1; p <= Math.min(ndcg.k(), m); p++) {
                    idcg += ideal[m - p] / log2(p + 1);
                }
                for (int p = 1; p <= Math.min(ndcg.k(), m); p++) {
                    int d = order[p - 1];
                    double l = log2(r[d] + 1);
                    grad[d] = -(Math.pow(2, y[d]) - 1) / (l * l) / ((r[d] + 1) * Math.log(2)) / idcg;
                }
            }
            case RankMetric.ReciprocalRank rr -> {
                int first = 0;
                while (b[first] == 0) {
                    first++;
                }
                double rb = r[order[first]];
                grad[order[first]] = -1 / (rb * rb);
            }
            case RankMetric.Nerr nerr -> {
                double scale = Math.pow(2, nerr.ymax());
                double[] ideal = new double[m];
                for (int i = 0; i < m; i++) {
                    ideal[i] = (Math.pow(2, y[i]) - 1) / scale;
                }
                Arrays.sort(ideal);
                double idealErr = 0;
                double idealReach = 1;
                for (int j = 1; j <= Math.min(nerr.k(), m); j++) {
                    idealErr += idealReach * ideal[m - j] / j;
                    idealReach *= 1 - ideal[m - j];
                }
                double reach = 1;
                for (int j = 1; j <= Math.min(nerr.k(), m); j++) {
                    double stop = (Math.pow(2, y[order[j - 1]]) - 1) / scale;
                    double rb = r[order[j - 1]];
                    grad[order[j - 1]] = -reach * stop / (rb * rb) / idealErr;
                    reach *= 1 - stop;
                }
            }
        }
        return grad;
    }

    /** d sigma^+ / dz for the ordered pair with z = s_i - s_j and labels y_i, y_j (Yu Eq. 11, 20, 21). */
    public static double pairDerivative(BackwardType type, double alpha, double z, float yi, float yj) {
        double sb = sigmoid(alpha * z);
        int u = Float.compare(yi, yj);
        return switch (type) {
            case TYPE1 -> alpha * sb * (1 - sb);
            case TYPE2 -> u * alpha * sb * (1 - sb);
            case TYPE3 -> u > 0 ? 2 * alpha * (1 - sb) : u < 0 ? -2 * alpha * sb : 0;
        };
    }

    /**
     * sum_i g_i dr_i/ds for r_i = 1 + sum_{j != i} (1 - sigma^+(s_i - s_j)), pair by pair:
     * dr_i/ds_i gets -d_ij and dr_i/ds_j gets +d_ij.
     */
    public static double[] pairBackward(BackwardType type, double alpha, double[] s, float[] y, double[] g) {
        int m = s.length;
        double[] grad = new double[m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                if (j != i) {
                    double d = pairDerivative(type, alpha, s[i] - s[j], y[i], y[j]);
                    grad[i] -= g[i] * d;
                    grad[j] += g[i] * d;
                }
            }
        }
        return grad;
    }

    /** sum over the pairs of |g_i d_ij| reaching each document in {@link #pairBackward}: a scale for rounding errors. */
    public static double[] pairBackwardMagnitude(BackwardType type, double alpha, double[] s, float[] y, double[] g) {
        int m = s.length;
        double[] size = new double[m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                if (j != i) {
                    double d = Math.abs(g[i] * pairDerivative(type, alpha, s[i] - s[j], y[i], y[j]));
                    size[i] += d;
                    size[j] += d;
                }
            }
        }
        return size;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
