package rankgrad.ltr.rank;

import java.util.Arrays;

/**
 * SoftSort of Prillo and Eisenschlos (ICML 2020, Eq. 2 with d = |.|), named for its authors to keep it
 * apart from {@link SoftSort}, the permutahedron soft sort of Blondel et al.: the relaxed permutation
 * matrix
 *
 * <pre>
 *   P_ij = softmax_j( -|sort(s)_i - s_j| / tau ),
 * </pre>
 *
 * sort(s) being the scores in decreasing order, row i position i (0 = top). The gradient flows
 * through both s_j and sort(s)_i (the sort is piecewise the identity on a permutation of the
 * scores); tied scores are sorted stably (input order), and |x| has derivative 0 at 0, as in
 * PyTorch.
 *
 * <p>Implementation: one sort per query (O(m log m)), then a row costs m subtractions and m
 * exponentials; O(m) memory.
 *
 * <pre>{@code
 * RelaxedSort sort = PrilloSoftSort.of(1.0);
 * }</pre>
 *
 * <p>Thread-safety: immutable.
 */
public record PrilloSoftSort(double tau) implements RelaxedSort {

    public PrilloSoftSort {
        Inputs.requirePositiveFinite("SoftSort temperature tau", tau);
    }

    /** PrilloSoftSort at temperature {@code tau} &gt; 0. */
    public static PrilloSoftSort of(double tau) {
        return new PrilloSoftSort(tau);
    }

    @Override
    public String name() {
        return "softsort:" + tau;
    }

    @Override
    public RelaxedSort.Rows rows(double[] s, int from, int m) {
        return new Rows(s, from, m, tau);
    }

    private static final class Rows implements RelaxedSort.Rows {
        private final double[] s;
        /** order[i]: the document at position i of the decreasing sort (ties in input order). */
        private final int[] order;
        private final double[] logits;
        private final double tau;

        Rows(double[] scores, int from, int m, double tau) {
            this.s = Arrays.copyOfRange(scores, from, from + m);
            this.tau = tau;
            this.logits = new double[m];
            Integer[] boxed = new Integer[m];
            for (int j = 0; j < m; j++) {
                boxed[j] = j;
            }
            // Decreasing; -0.0 and +0.0 compare equal (docs/design.md §3.2), so the sort stays stable on them.
            Arrays.sort(boxed, (x, y) -> Double.compare(s[y] + 0.0, s[x] + 0.0));
            this.order = new int[m];
            for (int i = 0; i < m; i++) {
                order[i] = boxed[i];
            }
        }

        @Override
        public int size() {
            return s.length;
        }

        @Override
        public void row(int i, double[] p) {
            int m = s.length;
            double top = s[order[i]];
            for (int j = 0; j < m; j++) {
                logits[j] = -Math.abs(top - s[j]) / tau;
            }
            RelaxedSort.softmax(logits, p, m);
        }

        @Override
        public void addLogitGradient(int i, double[] logitGrad, double[] scoreGrad) {
            int m = s.length;
            double top = s[order[i]];
            double topGrad = 0;
            for (int j = 0; j < m; j++) {
                // d(-|t - s_j| / tau) / ds_j = sign(t - s_j) / tau, and the opposite for t.
                double d = Math.signum(top - s[j]) / tau * logitGrad[j];
                scoreGrad[j] += d;
                topGrad -= d;
            }
            scoreGrad[order[i]] += topGrad;
        }

        @Override
        public void finish(double[] scoreGrad) {
            // Nothing is kept back: each row's gradient reaches the scores directly.
        }
    }
}
