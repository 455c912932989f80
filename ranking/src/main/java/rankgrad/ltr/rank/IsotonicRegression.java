package rankgrad.ltr.rank;

/**
 * Pool adjacent violators (PAV) for the two isotonic problems dual to a projection onto the
 * permutahedron (Blondel et al. 2020, Sec. 4.2, Prop. 3; docs/design.md §3.11), in float64, with
 * the blocks of the solution recorded so that the Jacobian (block-constant, Sec. 5) can be applied
 * in O(n):
 * <pre>
 *   quadratic:  v_Q(s, w) = argmin_{v_1 &gt;= ... &gt;= v_n} (1/2) ||v - (s - w)||^2,  v_B = mean_{j in B}(s_j - w_j)
 *   entropic:   v_E(s, w) = argmin_{v_1 &gt;= ... &gt;= v_n} &lt;e^{s - v}, 1&gt; + &lt;e^w, v&gt;,  v_B = LSE(s_B) - LSE(w_B)
 * </pre>
 * Both solutions are constant on blocks B of consecutive indices. The derivatives with respect to
 * s are, within a block, dv_B/ds_j = 1/|B| (quadratic) and softmax(s_B)_j (entropic), and with
 * respect to w their negatives with w in place of s; outside the block 0.
 *
 * <p>The stack form of PAV: each new index opens a block, which is merged with the block below as
 * long as their values are not strictly decreasing, so every index is pushed once and merged at
 * most once: O(n) time and memory. Ties in value are merged, as in fast-soft-sort. Scalar and
 * sequential by nature (each merge depends on the previous one). Stateless; a {@code Blocks} is
 * written by one thread.
 */
final class IsotonicRegression {

    /** The blocks of a solution: block b holds indices {@code start[b] .. start[b + 1])}, and its LSE(s_B) when entropic. */
    static final class Blocks {
        final int[] start;
        final double[] value;
        final double[] lseS;
        int count;

        Blocks(int n, boolean entropic) {
            start = new int[n + 1];
            value = new double[n];
            lseS = entropic ? new double[n] : null;
        }
    }

    private IsotonicRegression() {
    }

    /** v_Q(s, w) of {@code s[0..n)} and {@code w[0..n)} into {@code sol}; its blocks into {@code blocks}. */
    static void quadratic(double[] s, double[] w, int n, double[] sol, Blocks blocks) {
        int[] start = blocks.start;
        double[] value = blocks.value;
        // sol holds, until the expansion below, the running sum of each open block at its top index.
        int top = -1;
        for (int i = 0; i < n; i++) {
            top++;
            start[top] = i;
            double sum = s[i] - w[i];
            value[top] = sum;
            while (top > 0 && value[top - 1] <= value[top]) {
                sum += sol[start[top - 1]];
                top--;
                value[top] = sum / (i + 1 - start[top]);
            }
            sol[start[top]] = sum;
        }
        expand(blocks, top + 1, n, sol);
    }

    /** v_E(s, w) of {@code s[0..n)} and {@code w[0..n)} into {@code sol}; its blocks (with LSE(s_B)) into {@code blocks}. */
    static void entropic(double[] s, double[] w, int n, double[] sol, Blocks blocks) {
        int[] start = blocks.start;
        double[] value = blocks.value;
        double[] lseS = blocks.lseS;
        // sol holds, until the expansion below, LSE(w_B) of each open block at its top index.
        int top = -1;
        for (int i = 0; i < n; i++) {
            top++;
            start[top] = i;
            double ls = s[i];
            double lw = w[i];
            value[top] = ls - lw;
            while (top > 0 && value[top - 1] <= value[top]) {
                ls = logAddExp(lseS[top - 1], ls);
                lw = logAddExp(sol[start[top - 1]], lw);
                top--;
                value[top] = ls - lw;
            }
            lseS[top] = ls;
            sol[start[top]] = lw;
        }
        expand(blocks, top + 1, n, sol);
    }

    /** LSE of each block of {@code x} (for softmax weights over the blocks of another solution). */
    static double[] blockLse(Blocks blocks, double[] x) {
        double[] lse = new double[blocks.count];
        for (int b = 0; b < blocks.count; b++) {
            double acc = x[blocks.start[b]];
            for (int j = blocks.start[b] + 1; j < blocks.start[b + 1]; j++) {
                acc = logAddExp(acc, x[j]);
            }
            lse[b] = acc;
        }
        return lse;
    }

    private static void expand(Blocks blocks, int count, int n, double[] sol) {
        blocks.count = count;
        blocks.start[count] = n;
        for (int b = 0; b < count; b++) {
            for (int j = blocks.start[b]; j < blocks.start[b + 1]; j++) {
                sol[j] = blocks.value[b];
            }
        }
    }

    /** log(e^x + e^y) without overflow. */
    static double logAddExp(double x, double y) {
        double hi = Math.max(x, y);
        return hi + Math.log1p(Math.exp(Math.min(x, y) - hi));
    }
}
