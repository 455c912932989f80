package rankgrad.ltr.rank;

import java.util.Arrays;
import java.util.function.IntConsumer;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.internal.pairwise.WorkPartition;
import rankgrad.simd.Parallel;

/**
 * Soft ranks and soft sorts of one query by projection onto the permutahedron (Blondel et al.
 * 2020; docs/design.md §3.11), forward and vector-Jacobian product, in float64: the scalar
 * reference and the only implementation (see {@link SoftRank} for why no vector kernel).
 *
 * <p>Conventions: rank 1 is the highest score and the sort is descending (fast-soft-sort's
 * {@code direction="DESCENDING"}); rho = (m, m - 1, ..., 1); z_sigma is z sorted descending, ties
 * by index (stable; tied values pool into one block anyway, so the tie order changes no bit).
 * <pre>
 *   soft rank   r = P(-theta / eps, rho):  quadratic  r = z - v_Q(z_sigma, rho)_{sigma^-1}
 *                                          entropic   r = exp(z - v_E(z_sigma, log rho)_{sigma^-1}),   z = -theta / eps
 *   soft sort   x = theta_sigma (descending), w = rho / eps:   quadratic  s = w - v_Q(w, x);   entropic  s = w - v_E(w, x)
 * </pre>
 * Forward: a sort, O(m log m), then PAV and permutations, O(m). Backward: O(m) from what forward
 * kept (the permutation, the blocks and, for entropic, the softmax weights), O(m) memory.
 */
final class PermutahedronKernel {
    /** Below this many elements a run is sorted by insertion before merging. */
    private static final int RUN = 32;

    /** What the vector-Jacobian product of one query needs. */
    static final class State {
        /** order[p]: the local index of the element at sorted position p. */
        final int[] order;
        final IsotonicRegression.Blocks blocks;
        /** Entropic: the block softmax weights p_j at sorted positions; then, for ranks, r at local indices. */
        double[] weights;
        double[] ranks;

        State(int[] order, IsotonicRegression.Blocks blocks) {
            this.order = order;
            this.blocks = blocks;
        }
    }

    /** Documents per task: a partition fixed by the batch's offsets, so results do not depend on threads. */
    private static final int DOCS_PER_TASK = 2048;

    private PermutahedronKernel() {
    }

    /** Runs {@code perQuery} for every query of {@code batch}, in parallel tasks of whole queries. */
    static void forEachQuery(QueryBatch batch, IntConsumer perQuery) {
        int[] blocks = WorkPartition.queryBlocks(batch.offsets(), DOCS_PER_TASK);
        Parallel.forEach(blocks.length - 1, t -> {
            for (int q = blocks[t]; q < blocks[t + 1]; q++) {
                perQuery.accept(q);
            }
        });
    }

    /**
     * Soft ranks of {@code theta[from .. from+m)} into {@code r[from .. from+m)}; {@code order}: the
     * query's local indices by ascending theta, ties by index ({@link #order}), which is z = -theta / eps
     * descending.
     */
    static State rank(double[] theta, int[] order, int from, int m, double eps, Regularization reg, double[] r) {
        double[] zs = new double[m];
        double[] w = new double[m];
        boolean entropic = reg == Regularization.ENTROPIC;
        for (int p = 0; p < m; p++) {
            zs[p] = -theta[from + order[p]] / eps;
            w[p] = entropic ? Math.log(m - p) : m - p;
        }
        State state = new State(order, new IsotonicRegression.Blocks(m, entropic));
        IsotonicRegression.Blocks blocks = state.blocks;
        if (entropic) {
            IsotonicRegression.entropic(zs, w, m, blocks);
            state.weights = new double[m];
            state.ranks = new double[m];
        } else {
            IsotonicRegression.quadratic(zs, w, m, blocks);
        }
        for (int b = 0; b < blocks.count; b++) {
            for (int p = blocks.start[b]; p < blocks.start[b + 1]; p++) {
                // z_p - v_B, formed so that a block of one gives exactly w_p (IsotonicRegression.Blocks).
                double deviation = blocks.sDeviation(b, zs[p]);
                double u = deviation + blocks.wLevel(b);
                if (entropic) {
                    // deviation = z_p - LSE(z_B): exp(deviation) is softmax(z_B) at p, the block's Jacobian row.
                    state.weights[p] = Math.exp(deviation);
                    double rank = Math.exp(u);
                    state.ranks[order[p]] = rank;
                    r[from + order[p]] = rank;
                } else {
                    r[from + order[p]] = u;
                }
            }
        }
        return state;
    }

    /**
     * dL/dtheta into {@code out[from .. from+m)} from {@code g[from .. from+m)} = dL/dr:
     * quadratic  dL/dz = g - (block means of g_sigma)_{sigma^-1};  entropic  with g' = g r in place of g
     * and softmax(z_sigma)-weighted block sums in place of means; dL/dtheta = -dL/dz / eps.
     */
    static void rankVjp(State state, double[] g, int from, int m, double eps, double[] out) {
        int[] order = state.order;
        double[] gs = new double[m];
        for (int p = 0; p < m; p++) {
            int i = order[p];
            gs[p] = state.ranks == null ? g[from + i] : g[from + i] * state.ranks[i];
        }
        double[] pooled = new double[m];
        blockVjp(state, gs, pooled);
        for (int p = 0; p < m; p++) {
            out[from + order[p]] = -(gs[p] - pooled[p]) / eps;
        }
    }

    /**
     * Soft sort (descending) of {@code theta[from .. from+m)} into {@code s[from .. from+m)}, by
     * position; {@code order}: the query's local indices by descending theta, ties by index.
     */
    static State sort(double[] theta, int[] order, int from, int m, double eps, Regularization reg, double[] s) {
        double[] x = new double[m];
        double[] w = new double[m];
        for (int p = 0; p < m; p++) {
            x[p] = theta[from + order[p]];
            w[p] = (m - p) / eps;
        }
        boolean entropic = reg == Regularization.ENTROPIC;
        State state = new State(order, new IsotonicRegression.Blocks(m, entropic));
        IsotonicRegression.Blocks blocks = state.blocks;
        if (entropic) {
            IsotonicRegression.entropic(w, x, m, blocks);
            state.weights = new double[m];
        } else {
            IsotonicRegression.quadratic(w, x, m, blocks);
        }
        for (int b = 0; b < blocks.count; b++) {
            for (int p = blocks.start[b]; p < blocks.start[b + 1]; p++) {
                // w_p - v_B = (w_p - level of w_B) + level of x_B (x is the isotonic problem's w argument).
                s[from + p] = blocks.sDeviation(b, w[p]) + blocks.wLevel(b);
                if (entropic) {
                    state.weights[p] = Math.exp(blocks.wDeviation(b, x[p]));
                }
            }
        }
        return state;
    }

    /**
     * dL/dtheta into {@code out[from .. from+m)} from {@code g[from .. from+m)} = dL/ds by position:
     * ds_p/dx_j = -dv_p/dx_j = 1/|B| (quadratic) or softmax(x_B)_j (entropic) for j in p's block B.
     */
    static void sortVjp(State state, double[] g, int from, int m, double[] out) {
        double[] gs = new double[m];
        System.arraycopy(g, from, gs, 0, m);
        blockVjp(state, gs, gs);
        for (int p = 0; p < m; p++) {
            out[from + state.order[p]] = gs[p];
        }
    }

    /** p_j sum_{B(j)} g, with p = 1/|B| (quadratic) or the kept softmax weights (entropic). */
    private static void blockVjp(State state, double[] g, double[] out) {
        IsotonicRegression.Blocks blocks = state.blocks;
        for (int b = 0; b < blocks.count; b++) {
            int lo = blocks.start[b];
            int hi = blocks.start[b + 1];
            double sum = 0;
            for (int j = lo; j < hi; j++) {
                sum += g[j];
            }
            if (state.weights == null) {
                double mean = sum / (hi - lo);
                for (int j = lo; j < hi; j++) {
                    out[j] = mean;
                }
            } else {
                for (int j = lo; j < hi; j++) {
                    out[j] = state.weights[j] * sum;
                }
            }
        }
    }

    /**
     * The local indices of the query {@code scores[from .. from+m)} by ascending score ({@code
     * descending}: by descending score), ties by index; -0.0 and +0.0 tie. float32 scores sort as
     * packed longs (score bits, then index) with {@link Arrays#sort(long[])}, float64 scores with a
     * merge sort that moves each value with its index; both give this one order.
     */
    static int[] order(Tensor scores, double[] widened, int from, int m, boolean descending) {
        if (scores.dtype() == DType.F32) {
            float[] x = scores.f32();
            long[] packed = new long[m];
            for (int i = 0; i < m; i++) {
                // +0.0f folds -0.0 into +0.0; the xor makes the int order follow the float order.
                int bits = Float.floatToRawIntBits((descending ? -x[from + i] : x[from + i]) + 0.0f);
                long monotone = bits ^ ((bits >> 31) & 0x7fffffff);
                packed[i] = (monotone << 32) | i;
            }
            Arrays.sort(packed);
            int[] order = new int[m];
            for (int p = 0; p < m; p++) {
                order[p] = (int) packed[p];
            }
            return order;
        }
        return ascendingOrder(widened, from, m, descending ? -1 : 1);
    }

    /**
     * A bottom-up merge sort of sign * x by value, ties by index, moving each value with its index
     * so that the merges read memory in order (a comparator over boxed indices costs several
     * times more at m = 10^6). Comparisons with &lt; make -0.0 and +0.0 tie.
     */
    private static int[] ascendingOrder(double[] x, int from, int m, double sign) {
        double[] key = new double[m];
        int[] idx = new int[m];
        for (int i = 0; i < m; i++) {
            key[i] = sign * x[from + i];
            idx[i] = i;
        }
        for (int lo = 0; lo < m; lo += RUN) {
            int hi = Math.min(lo + RUN, m);
            for (int i = lo + 1; i < hi; i++) {
                double k = key[i];
                int id = idx[i];
                int j = i - 1;
                while (j >= lo && k < key[j]) {
                    key[j + 1] = key[j];
                    idx[j + 1] = idx[j];
                    j--;
                }
                key[j + 1] = k;
                idx[j + 1] = id;
            }
        }
        double[] key2 = new double[m];
        int[] idx2 = new int[m];
        for (int width = RUN; width < m; width *= 2) {
            for (int lo = 0; lo < m; lo += 2 * width) {
                int mid = Math.min(lo + width, m);
                int hi = Math.min(lo + 2 * width, m);
                int a = lo;
                int b = mid;
                for (int k = lo; k < hi; k++) {
                    // Take from the right run only when strictly smaller: equal values keep index order.
                    if (a < mid && (b >= hi || !(key[b] < key[a]))) {
                        key2[k] = key[a];
                        idx2[k] = idx[a++];
                    } else {
                        key2[k] = key[b];
                        idx2[k] = idx[b++];
                    }
                }
            }
            double[] tk = key;
            key = key2;
            key2 = tk;
            int[] ti = idx;
            idx = idx2;
            idx2 = ti;
        }
        return idx;
    }
}
