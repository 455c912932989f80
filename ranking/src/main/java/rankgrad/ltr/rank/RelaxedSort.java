package rankgrad.ltr.rank;

/**
 * A relaxed permutation matrix P(s) of one query's scores: row i is position i (0 = the highest
 * score), column j document j, and each row is a softmax over the documents, P_i = softmax(l_i / tau)
 * (docs/design.md §3.13). Two operators: {@link NeuralSort} (Grover et al. 2019) and
 * {@link PrilloSoftSort} (Prillo and Eisenschlos 2020). As tau goes to 0 both tend to the permutation
 * matrix that sorts the scores in decreasing order.
 *
 * <p>Neither operator materializes P: {@link #rows} prepares O(m) per-query state, and each call of
 * {@link Rows#row} recomputes one row in O(m) time. A loss that reads P row by row (the NeuralNDCG
 * family, {@link SinkhornScaling}) therefore needs O(m) memory per query instead of m x m, at the
 * price of recomputing each row once per pass.
 *
 * <pre>{@code
 * RelaxedSort sort = NeuralSort.of(1.0);
 * double[] ranks = sort.expectedRanks(scores, 0, scores.length);   // 1 = top, non-integer
 * }</pre>
 *
 * <p>Thread-safety: implementations are immutable; a {@link Rows} belongs to one thread.
 */
public sealed interface RelaxedSort permits NeuralSort, PrilloSoftSort {

    /** The temperature tau &gt; 0. */
    double tau();

    /** The operator's name as the loss registry spells it, e.g. "neuralsort:1.0". */
    String name();

    /**
     * The rows of P for the scores {@code s[from .. from+m)}; the scores are copied, so the
     * array may change afterwards. O(m) memory (PrilloSoftSort: O(m log m) time for its sort).
     */
    Rows rows(double[] s, int from, int m);

    /**
     * Soft ranks of the operator (1 = top, not integers): the mean position of each document under
     * its column of P,
     *
     * <pre>
     *   r_j = sum_i (i + 1) P_ij / c_j,   c_j = sum_i P_ij,
     * </pre>
     *
     * for a metric of ranks (one more rank operator beside the twin-sigmoid and the soft ranks of
     * the permutahedron). Why the division by c_j: P is row-stochastic but its columns need not
     * sum to 1 (only Sinkhorn scaling makes them), so the plain sum sum_i (i + 1) P_ij leaves
     * [1, m] and can even order two documents against their scores (NeuralSort at tau = 1 on
     * scores 3, 2.9, 2.8, -5 gives the first 2.12 and the second 2.07); normalized, r_j is an
     * average of 1 .. m, so it lies in [1, m], and it equals the plain sum wherever P is doubly
     * stochastic (m = 2, equal scores, the permutation limit tau -&gt; 0, where r is the exact
     * rank). c_j &gt;= 1/m &gt; 0: the row of document j's own position has its largest entry at j
     * (NeuralSort, Grover et al. 2019 Theorem 4; PrilloSoftSort's logit there is 0, the maximum).
     * Equal scores get equal ranks. Neither paper defines ranks; this is rankgrad's choice
     * (docs/losses.md). O(m^2) time, O(m) memory.
     */
    default double[] expectedRanks(double[] s, int from, int m) {
        Rows rows = rows(s, from, m);
        double[] p = new double[m];
        double[] r = new double[m];
        double[] c = new double[m];
        for (int i = 0; i < m; i++) {
            rows.row(i, p);
            for (int j = 0; j < m; j++) {
                r[j] += (i + 1) * p[j];
                c[j] += p[j];
            }
        }
        for (int j = 0; j < m; j++) {
            r[j] /= c[j];
        }
        return r;
    }

    /**
     * The vector-Jacobian product of {@link #expectedRanks}: g = d(sum_j rankGrad_j r_j) / ds, with
     * dL/dr read from {@code rankGrad[from .. from+m)}, where the scores are (so a batch's flat
     * gradient is passed as it is), and g returned as {@code g[0 .. m)}. With r and c held fixed, d r_j = sum_i dP_ij (i + 1 - r_j) / c_j, so
     *
     * <pre>
     *   g = d/ds sum_ij P_ij v_ij,   v_ij = rankGrad_j (i + 1 - r_j) / c_j,
     * </pre>
     *
     * taken through each row's softmax (dL/dl_ij = P_ij (v_ij - sum_k P_ik v_ik)) and the
     * operator's logits ({@link Rows#addLogitGradient}). Two passes over the rows (the first
     * recomputes r and c): O(m^2) time, O(m) memory.
     */
    default double[] expectedRanksGradient(double[] s, int from, int m, double[] rankGrad) {
        Rows rows = rows(s, from, m);
        double[] p = new double[m];
        double[] r = new double[m];
        double[] c = new double[m];
        for (int i = 0; i < m; i++) {
            rows.row(i, p);
            for (int j = 0; j < m; j++) {
                r[j] += (i + 1) * p[j];
                c[j] += p[j];
            }
        }
        // v_ij = (i + 1) a_j + b_j.
        double[] a = new double[m];
        double[] b = new double[m];
        for (int j = 0; j < m; j++) {
            r[j] /= c[j];
            a[j] = rankGrad[from + j] / c[j];
            b[j] = -a[j] * r[j];
        }
        double[] logitGrad = new double[m];
        double[] grad = new double[m];
        for (int i = 0; i < m; i++) {
            rows.row(i, p);
            double mean = 0;
            for (int j = 0; j < m; j++) {
                mean += p[j] * ((i + 1) * a[j] + b[j]);
            }
            for (int j = 0; j < m; j++) {
                logitGrad[j] = p[j] * ((i + 1) * a[j] + b[j] - mean);
            }
            rows.addLogitGradient(i, logitGrad, grad);
        }
        rows.finish(grad);
        return grad;
    }

    /**
     * One query's rows of P, recomputed on demand, and the backward of the row logits to the
     * scores.
     */
    interface Rows {
        /** The number of documents m. */
        int size();

        /** Writes row i of P (position i, 0 = top) into {@code p[0 .. m)}: a softmax over the documents. */
        void row(int i, double[] p);

        /**
         * Adds to {@code scoreGrad[0 .. m)} the contribution of {@code logitGrad}, the gradient with
         * respect to the softmax arguments of row i (l_ij / tau), through row i's dependence on the
         * scores. Some operators keep part of it back until {@link #finish}.
         */
        void addLogitGradient(int i, double[] logitGrad, double[] scoreGrad);

        /** Adds what {@link #addLogitGradient} kept back to {@code scoreGrad}, and forgets it. */
        void finish(double[] scoreGrad);
    }

    /** Writes the softmax of {@code logits[0 .. m)} into {@code p}, subtracting the maximum first. */
    static void softmax(double[] logits, double[] p, int m) {
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < m; j++) {
            max = Math.max(max, logits[j]);
        }
        double sum = 0;
        for (int j = 0; j < m; j++) {
            p[j] = Math.exp(logits[j] - max);
            sum += p[j];
        }
        for (int j = 0; j < m; j++) {
            p[j] /= sum;
        }
    }
}
