package rankgrad.ltr.rank;

/**
 * NeuralSort (Grover, Wang, Zweig, Ermon, ICLR 2019, Theorem 4 and Eq. 5): the relaxed permutation
 * matrix
 *
 * <pre>
 *   P_ij = softmax_j( ((m + 1 - 2 (i + 1)) s_j - A_j) / tau ),   A_j = sum_k |s_j - s_k|,
 * </pre>
 *
 * row i being position i (0 = top). Its rows are unimodal row-stochastic; as tau goes to 0, P
 * tends to the permutation matrix of the decreasing sort. Equal scores give equal columns, so
 * the operator is permutation-equivariant at ties too; at a tie |s_j - s_k| has derivative 0, as
 * in PyTorch (and allRank's {@code deterministic_neural_sort}, which this follows).
 *
 * <p>Implementation: A is computed once per query (O(m^2) additions, O(m) memory); a row costs m
 * multiply-adds and m exponentials. The backward of the logits accumulates dL/dA_j in O(m) and
 * pushes it to the scores in {@link Rows#finish}: dA_j/ds_l = sum_k sign(s_l - s_k) for l = j and
 * -sign(s_j - s_l) otherwise, O(m^2).
 *
 * <pre>{@code
 * RelaxedSort sort = NeuralSort.of(1.0);
 * }</pre>
 *
 * <p>Thread-safety: immutable.
 */
public record NeuralSort(double tau) implements RelaxedSort {

    public NeuralSort {
        Inputs.requirePositiveFinite("NeuralSort temperature tau", tau);
    }

    /** NeuralSort at temperature {@code tau} &gt; 0. */
    public static NeuralSort of(double tau) {
        return new NeuralSort(tau);
    }

    @Override
    public String name() {
        return "neuralsort:" + tau;
    }

    @Override
    public RelaxedSort.Rows rows(double[] s, int from, int m) {
        return new Rows(s, from, m, tau);
    }

    private static final class Rows implements RelaxedSort.Rows {
        private final double[] s;
        private final double[] a;
        private final double[] aGrad;
        private final double[] logits;
        private final double tau;

        Rows(double[] scores, int from, int m, double tau) {
            this.s = java.util.Arrays.copyOfRange(scores, from, from + m);
            this.a = new double[m];
            this.aGrad = new double[m];
            this.logits = new double[m];
            this.tau = tau;
            for (int j = 0; j < m; j++) {
                double sum = 0;
                for (int k = 0; k < m; k++) {
                    sum += Math.abs(s[j] - s[k]);
                }
                a[j] = sum;
            }
        }

        @Override
        public int size() {
            return s.length;
        }

        @Override
        public void row(int i, double[] p) {
            int m = s.length;
            double scale = m - 1 - 2 * i;
            for (int j = 0; j < m; j++) {
                logits[j] = (scale * s[j] - a[j]) / tau;
            }
            RelaxedSort.softmax(logits, p, m);
        }

        @Override
        public void addLogitGradient(int i, double[] logitGrad, double[] scoreGrad) {
            int m = s.length;
            double scale = (m - 1 - 2 * i) / tau;
            for (int j = 0; j < m; j++) {
                scoreGrad[j] += scale * logitGrad[j];
                aGrad[j] -= logitGrad[j] / tau;
            }
        }

        @Override
        public void finish(double[] scoreGrad) {
            int m = s.length;
            for (int l = 0; l < m; l++) {
                double sum = 0;
                for (int k = 0; k < m; k++) {
                    sum += Math.signum(s[l] - s[k]) * (aGrad[l] + aGrad[k]);
                }
                scoreGrad[l] += sum;
            }
            java.util.Arrays.fill(aGrad, 0);
        }
    }
}
