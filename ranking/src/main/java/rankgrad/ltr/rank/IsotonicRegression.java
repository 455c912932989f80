package rankgrad.ltr.rank;

/**
 * Pool adjacent violators (PAV) for the two isotonic problems dual to a projection onto the
 * permutahedron (Blondel et al. 2020, Sec. 5, the reduction to isotonic optimization;
 * docs/design.md §3.11), in float64, with the blocks of the solution recorded so that the Jacobian
 * (block-constant, Sec. 5) can be applied in O(n):
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

    /**
     * The blocks of a solution: block b holds indices {@code start[b] .. start[b + 1])} and has value
     * v_B = {@link #sLevel} - {@link #wLevel}: the means of s and of w over the block (quadratic),
     * or their LSEs (entropic), each LSE kept as a maximum and the log-sum of exp(x - maximum). A
     * caller forms s_i - v_B as {@link #sDeviation} + {@link #wLevel}: exactly w_i in a block of
     * one, and s_i - LSE(s_B) exact for equal huge s (s_i - (s_i - w_i) loses w_i once |s_i| / |w_i|
     * passes 2^53, and LSE(Z, Z) = Z + log 2 rounds to Z at Z = 1e40).
     */
    static final class Blocks {
        final int[] start;
        /** Quadratic: sums, then means; entropic: maxima. */
        final double[] sPart;
        final double[] wPart;
        /** Entropic: log sum_j exp(x_j - maximum) over the block; null for quadratic. */
        final double[] sLog;
        final double[] wLog;
        int count;

        Blocks(int n, boolean entropic) {
            start = new int[n + 1];
            sPart = new double[n];
            wPart = new double[n];
            sLog = entropic ? new double[n] : null;
            wLog = entropic ? new double[n] : null;
        }

        /** mean(s_B) or LSE(s_B) of block b. */
        double sLevel(int b) {
            return sLog == null ? sPart[b] : sPart[b] + sLog[b];
        }

        /** mean(w_B) or LSE(w_B) of block b. */
        double wLevel(int b) {
            return wLog == null ? wPart[b] : wPart[b] + wLog[b];
        }

        /** s_i - mean(s_B) or s_i - LSE(s_B) for s_i = {@code x} in block b. */
        double sDeviation(int b, double x) {
            return sLog == null ? x - sPart[b] : (x - sPart[b]) - sLog[b];
        }

        /** w_i - mean(w_B) or w_i - LSE(w_B) for w_i = {@code x} in block b. */
        double wDeviation(int b, double x) {
            return wLog == null ? x - wPart[b] : (x - wPart[b]) - wLog[b];
        }
    }

    private IsotonicRegression() {
    }

    /** The blocks of v_Q(s, w) for {@code s[0..n)} and {@code w[0..n)}, into {@code blocks}. */
    static void quadratic(double[] s, double[] w, int n, Blocks blocks) {
        int[] start = blocks.start;
        // Sums while the stack is built; divided into means at the end.
        double[] sumS = blocks.sPart;
        double[] sumW = blocks.wPart;
        int top = -1;
        for (int i = 0; i < n; i++) {
            top++;
            start[top] = i;
            sumS[top] = s[i];
            sumW[top] = w[i];
            // Merge while the block below is not strictly above: its mean <= the top's mean.
            while (top > 0 && (sumS[top - 1] - sumW[top - 1]) / (start[top] - start[top - 1])
                    <= (sumS[top] - sumW[top]) / (i + 1 - start[top])) {
                sumS[top - 1] += sumS[top];
                sumW[top - 1] += sumW[top];
                top--;
            }
        }
        blocks.count = top + 1;
        start[top + 1] = n;
        for (int b = 0; b <= top; b++) {
            int size = start[b + 1] - start[b];
            sumS[b] /= size;
            sumW[b] /= size;
        }
    }

    /** The blocks of v_E(s, w) for {@code s[0..n)} and {@code w[0..n)}, into {@code blocks}. */
    static void entropic(double[] s, double[] w, int n, Blocks blocks) {
        int[] start = blocks.start;
        double[] sMax = blocks.sPart;
        double[] wMax = blocks.wPart;
        double[] sLog = blocks.sLog;
        double[] wLog = blocks.wLog;
        int top = -1;
        for (int i = 0; i < n; i++) {
            top++;
            start[top] = i;
            sMax[top] = s[i];
            wMax[top] = w[i];
            sLog[top] = 0;
            wLog[top] = 0;
            while (top > 0 && blocks.sLevel(top - 1) - blocks.wLevel(top - 1) <= blocks.sLevel(top) - blocks.wLevel(top)) {
                merge(sMax, sLog, top);
                merge(wMax, wLog, top);
                top--;
            }
        }
        blocks.count = top + 1;
        start[top + 1] = n;
    }

    /** Block top - 1 takes block top's terms: log sum exp over both, about the larger maximum. */
    private static void merge(double[] max, double[] log, int top) {
        double hi = Math.max(max[top - 1], max[top]);
        log[top - 1] = logAddExp(log[top - 1] + (max[top - 1] - hi), log[top] + (max[top] - hi));
        max[top - 1] = hi;
    }

    /** log(e^x + e^y) without overflow. */
    static double logAddExp(double x, double y) {
        double hi = Math.max(x, y);
        return hi + Math.log1p(Math.exp(Math.min(x, y) - hi));
    }
}
