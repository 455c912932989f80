package rankgrad.ltr.rank;

/**
 * A relaxed permutation matrix P(s) of one query's scores: row i is position i (0 = the highest
 * score), column j document j, and each row is a softmax over the documents, P_i = softmax(l_i / tau)
 * (docs/design.md section 3.11). Two operators: {@link NeuralSort} (Grover et al. 2019) and
 * {@link SoftSort} (Prillo and Eisenschlos 2020). As tau goes to 0 both tend to the permutation
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
public sealed interface RelaxedSort permits NeuralSort, SoftSort {

    /** The temperature tau &gt; 0. */
    double tau();

    /** The operator's name as the loss registry spells it, e.g. "neuralsort:1.0". */
    String name();

    /**
     * The rows of P for the scores {@code s[from .. from+m)}; the scores are copied, so the
     * array may change afterwards. O(m) memory (SoftSort: O(m log m) time for its sort).
     */
    Rows rows(double[] s, int from, int m);

    /**
     * The expected rank of each document under P, r_j = sum_i (i + 1) P_ij (1 = top): the soft
     * ranks of the operator, for a metric of ranks. O(m^2) time, O(m) memory.
     */
    default double[] expectedRanks(double[] s, int from, int m) {
        Rows rows = rows(s, from, m);
        double[] p = new double[m];
        double[] r = new double[m];
        for (int i = 0; i < m; i++) {
            rows.row(i, p);
            for (int j = 0; j < m; j++) {
                r[j] += (i + 1) * p[j];
            }
        }
        return r;
    }

    /**
     * The vector-Jacobian product of {@link #expectedRanks}: d(sum_j rankGrad_j r_j) / ds, which is
     * the gradient of the bilinear form u^T P w with u_i = i + 1 and w = rankGrad. O(m^2) time,
     * O(m) memory.
     */
    default double[] expectedRanksGradient(double[] s, int from, int m, double[] rankGrad) {
        double[] u = new double[m];
        for (int i = 0; i < m; i++) {
            u[i] = i + 1;
        }
        double[] grad = new double[m];
        SinkhornScaling.none().bilinear(rows(s, from, m), u, rankGrad, 1.0, grad, 0);
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
