package rankgrad.ltr.rank;

import java.util.Arrays;
import rankgrad.ltr.metric.ExactMetrics;

/**
 * An IR metric written as a differentiable function of rank variables (Yu et al. 2020, Eq.
 * 13-16; docs/design.md §3.3): its value and its derivative dM/dr_i at given ranks, for one query.
 *
 * <p>Notation: r_i is the rank variable of document i; {@code order[p]} is the document at
 * position p + 1, and r_bar_p = r_{order[p]} is the rank variable read by position (its value is
 * p + 1 when the ranks are exact, but it carries the gradient); b = [label &gt; 0]; gains g = 2^y - 1.
 * <ul>
 *   <li>{@link Precision}: Pre@k = (1/k) sum_{p &lt;= k} b_p p / r_bar_p (Eq. 13);</li>
 *   <li>{@link AveragePrecision}: AP = (1/|Y+|) sum_k b_k (1/k) sum_{p &lt;= k} b_p p / r_bar_p (Eq. 14);</li>
 *   <li>{@link Ndcg}: nDCG = (1/IDCG) sum_i g_i / log2(r_i + 1) over all documents (Eq. 15), which
 *       reads r directly, so it also applies to the approximate ranks pi^- (ApproxNDCG);</li>
 *   <li>{@link NdcgAt}: nDCG@k = (1/IDCG@k) sum_{p &lt;= k} g_p / log2(r_bar_p + 1), Eq. 15 cut at position k
 *       (not in Yu et al.; the cutoff reads positions, the discount the rank variable);</li>
 *   <li>{@link ReciprocalRank}: RR = 1 / r_bar_p for the first relevant position p (not in Yu et al.;
 *       the same construction: at exact ranks the exact reciprocal rank, MRR's per-query term);</li>
 *   <li>{@link Nerr}: nERR@k = (1/ERR*@k) sum_{p &lt;= k} prod_{i &lt; p}(1 - R_i) R_p / r_bar_p with
 *       R = (2^y - 1) / 2^ymax (Eq. 16, with the grade scale's ymax as in the exact metric).</li>
 * </ul>
 * At exact ranks each value equals the exact metric of that ranking. Derivatives: for Pre@k,
 * dM/dr_bar_p = -b_p p / (k r_bar_p^2); for AP, -(b_p p / (|Y+| r_bar_p^2)) sum_{k &gt;= p} b_k / k;
 * for nDCG, -g_i / (IDCG ln2 (r_i + 1) log2(r_i + 1)^2) (Yu's Eq. 32 drops the 1/ln 2); for nERR,
 * -prod_{i &lt; p}(1 - R_i) R_p / (ERR* r_bar_p^2) for p &lt;= k; for nDCG@k the nDCG derivative at the
 * top k positions; for RR, -1 / r_bar_p^2 at the first relevant position.
 *
 * <p>A query without relevant documents has value 0 and derivative 0. Ideal DCG and ERR at k use
 * the top min(k, m) labels; Pre@k divides by k even when k &gt; m.
 */
public sealed interface RankMetric permits RankMetric.Precision, RankMetric.AveragePrecision, RankMetric.Ndcg,
        RankMetric.NdcgAt, RankMetric.ReciprocalRank, RankMetric.Nerr {

    /** The name in loss names and logs: "precision@10", "ap", "ndcg", "nerr@10". */
    String name();

    /** Whether the metric reads rank variables by position (r_bar), which needs exact ranks. */
    boolean readsPositions();

    /**
     * The metric at ranks {@code r} of the m documents whose labels are {@code labels[from ..
     * from+m)}, writing dM/dr_i into {@code grad[i]} (overwritten for i &lt; m).
     *
     * @param r rank variable of each document, indexed 0..m-1
     * @param order order[p] = the document at position p + 1; read only if {@link #readsPositions()}
     * @return the metric value, 0 for a query without relevant documents
     */
    double evaluate(float[] labels, int from, int m, double[] r, int[] order, double[] grad);

    /** Differentiable Pre@k (Eq. 13). */
    static RankMetric precision(int k) {
        return new Precision(k);
    }

    /** Differentiable AP over the whole list (Eq. 14). */
    static RankMetric averagePrecision() {
        return new AveragePrecision();
    }

    /** Differentiable nDCG over the whole list (Eq. 15). */
    static RankMetric ndcg() {
        return new Ndcg();
    }

    /** Differentiable nDCG@k: the top k positions of Eq. 15. */
    static RankMetric ndcg(int k) {
        return new NdcgAt(k);
    }

    /** Differentiable reciprocal rank of the first relevant document (MRR's per-query term). */
    static RankMetric reciprocalRank() {
        return new ReciprocalRank();
    }

    /** Differentiable nERR@k with the grade scale maximum 4 (MSLR, Yahoo; Eq. 16). */
    static RankMetric nerr(int k) {
        return new Nerr(k, Nerr.DEFAULT_YMAX);
    }

    /** Differentiable nERR@k with grade scale maximum {@code ymax}. */
    static RankMetric nerr(int k, double ymax) {
        return new Nerr(k, ymax);
    }

    /** Pre@k = (1/k) sum_{p &lt;= k} b_p p / r_bar_p. */
    record Precision(int k) implements RankMetric {
        public Precision {
            Inputs.requireCutoff("precision", k);
        }

        @Override
        public String name() {
            return "precision@" + k;
        }

        @Override
        public boolean readsPositions() {
            return true;
        }

        @Override
        public double evaluate(float[] labels, int from, int m, double[] r, int[] order, double[] grad) {
            Arrays.fill(grad, 0, m, 0.0);
            double value = 0;
            for (int p = 0; p < Math.min(k, m); p++) {
                int d = order[p];
                if (labels[from + d] > 0) {
                    double pos = p + 1;
                    value += pos / r[d];
                    grad[d] = -pos / (k * r[d] * r[d]);
                }
            }
            return value / k;
        }
    }

    /** AP = (1/|Y+|) sum_k b_k (1/k) sum_{p &lt;= k} b_p p / r_bar_p. */
    record AveragePrecision() implements RankMetric {
        @Override
        public String name() {
            return "ap";
        }

        @Override
        public boolean readsPositions() {
            return true;
        }

        @Override
        public double evaluate(float[] labels, int from, int m, double[] r, int[] order, double[] grad) {
            Arrays.fill(grad, 0, m, 0.0);
            int relevant = 0;
            double tail = 0;
            for (int p = 0; p < m; p++) {
                if (labels[from + order[p]] > 0) {
                    relevant++;
                    tail += 1.0 / (p + 1);
                }
            }
            if (relevant == 0) {
                return 0;
            }
            double value = 0;
            double inner = 0;
            for (int p = 0; p < m; p++) {
                int d = order[p];
                if (labels[from + d] > 0) {
                    double pos = p + 1;
                    inner += pos / r[d];
                    value += inner / pos;
                    // tail = sum_{k >= p} b_k / k: the outer terms that contain r_bar_p.
                    grad[d] = -pos * tail / (relevant * r[d] * r[d]);
                    tail -= 1.0 / pos;
                }
            }
            return value / relevant;
        }
    }

    /** nDCG = (1/IDCG) sum_i (2^{y_i} - 1) / log2(r_i + 1), all documents. */
    record Ndcg() implements RankMetric {
        @Override
        public String name() {
            return "ndcg";
        }

        @Override
        public boolean readsPositions() {
            return false;
        }

        @Override
        public double evaluate(float[] labels, int from, int m, double[] r, int[] order, double[] grad) {
            Arrays.fill(grad, 0, m, 0.0);
            double idcg = ExactMetrics.idealDcg(labels, from, m, m);
            if (idcg == 0) {
                return 0;
            }
            double dcg = 0;
            for (int i = 0; i < m; i++) {
                double gain = ExactMetrics.gain(labels[from + i]);
                if (gain > 0) {
                    dcg += gain * ExactMetrics.discount(r[i]);
                    grad[i] = gain * ExactMetrics.discountSlope(r[i]) / idcg;
                }
            }
            return dcg / idcg;
        }
    }

    /** nDCG@k = (1/IDCG@k) sum_{p &lt;= k} (2^{y_p} - 1) / log2(r_bar_p + 1). */
    record NdcgAt(int k) implements RankMetric {
        public NdcgAt {
            Inputs.requireCutoff("nDCG", k);
        }

        @Override
        public String name() {
            return "ndcg@" + k;
        }

        @Override
        public boolean readsPositions() {
            return true;
        }

        @Override
        public double evaluate(float[] labels, int from, int m, double[] r, int[] order, double[] grad) {
            Arrays.fill(grad, 0, m, 0.0);
            double idcg = ExactMetrics.idealDcg(labels, from, m, k);
            if (idcg == 0) {
                return 0;
            }
            double dcg = 0;
            for (int p = 0; p < Math.min(k, m); p++) {
                int d = order[p];
                double gain = ExactMetrics.gain(labels[from + d]);
                if (gain > 0) {
                    dcg += gain * ExactMetrics.discount(r[d]);
                    grad[d] = gain * ExactMetrics.discountSlope(r[d]) / idcg;
                }
            }
            return dcg / idcg;
        }
    }

    /** RR = 1 / r_bar_p at the first position p holding a relevant document; 0 if there is none. */
    record ReciprocalRank() implements RankMetric {
        @Override
        public String name() {
            return "mrr";
        }

        @Override
        public boolean readsPositions() {
            return true;
        }

        @Override
        public double evaluate(float[] labels, int from, int m, double[] r, int[] order, double[] grad) {
            Arrays.fill(grad, 0, m, 0.0);
            for (int p = 0; p < m; p++) {
                int d = order[p];
                if (labels[from + d] > 0) {
                    grad[d] = -1 / (r[d] * r[d]);
                    return 1 / r[d];
                }
            }
            return 0;
        }
    }

    /** nERR@k = (1/ERR*@k) sum_{p &lt;= k} prod_{i &lt; p}(1 - R_i) R_p / r_bar_p, R = (2^y - 1) / 2^ymax. */
    record Nerr(int k, double ymax) implements RankMetric {
        /** The grade scale maximum of MSLR-WEB30K and Yahoo! LTR. */
        public static final double DEFAULT_YMAX = 4.0;

        public Nerr {
            Inputs.requireCutoff("nERR", k);
            Inputs.requirePositiveFinite("nERR grade scale maximum ymax", ymax);
        }

        @Override
        public String name() {
            return "nerr@" + k;
        }

        @Override
        public boolean readsPositions() {
            return true;
        }

        @Override
        public double evaluate(float[] labels, int from, int m, double[] r, int[] order, double[] grad) {
            Arrays.fill(grad, 0, m, 0.0);
            double[] stop = new double[m];
            for (int i = 0; i < m; i++) {
                if (labels[from + i] > ymax) {
                    throw new IllegalArgumentException("label " + labels[from + i] + " exceeds the grade scale maximum "
                            + ymax + " of " + name() + "; build the metric with RankMetric.nerr(k, ymax)");
                }
                stop[i] = ExactMetrics.gain(labels[from + i]) / Math.pow(2.0, ymax);
            }
            double[] ideal = stop.clone();
            Arrays.sort(ideal);
            double idealErr = 0;
            double reach = 1;
            for (int p = 0; p < Math.min(k, m); p++) {
                double rp = ideal[m - 1 - p];
                idealErr += reach * rp / (p + 1);
                reach *= 1 - rp;
            }
            if (idealErr == 0) {
                return 0;
            }
            double err = 0;
            reach = 1;
            for (int p = 0; p < Math.min(k, m); p++) {
                int d = order[p];
                double term = reach * stop[d];
                err += term / r[d];
                grad[d] = -term / (idealErr * r[d] * r[d]);
                reach *= 1 - stop[d];
            }
            return err / idealErr;
        }
    }
}
