package rankgrad.ltr.loss;

import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.rank.Inputs;
import rankgrad.ltr.rank.SortingNetwork;
import rankgrad.ltr.rank.SwapSigmoid;

/**
 * The ranking loss of differentiable sorting networks (Petersen, Borgelt, Kuehne, Deussen, ICML
 * 2021, Sec. 3-5; ICLR 2022, Sec. 4), as the {@code diffsort} package's experiments train with it:
 * the binary cross-entropy between the network's relaxed permutation matrix X and the permutation
 * matrix T that sorts the grades,
 *
 * <pre>
 *   L_q = -(1 / (m k')) sum_d sum_{w &gt;= m - k'} [ T_dw log X_dw + (1 - T_dw) log(1 - X_dw) ],
 * </pre>
 *
 * k' = min(k, m). X_dw is the weight of document d on output wire w (wire m - 1 = the highest
 * score) after the comparators of the {@link SortingNetwork} relax each swap with alpha = f(beta
 * (b - a)) ({@link SwapSigmoid}, steepness beta): X starts as the identity, and a comparator mixes
 * its two wires' columns as it mixes their values. The full sort (k' = m) is diffsort's loss; the
 * top-k case keeps the k highest wires only. Logarithms are clamped at -100 and the gradient of a
 * term is (X - T) / max(X (1 - X), 1e-12), as in PyTorch's {@code BCELoss}. Grades sort ascending
 * like diffsort's {@code argsort} targets; tied grades share their block of wires, T_dw = 1 / |tie
 * group| (diffsort's one-hot target needs distinct grades: docs/losses.md). A query without
 * relevant documents gives 0 and counts in the mean. The network relaxes comparisons of fixed
 * wires, so the loss depends on the input order of the documents (it is not
 * permutation-equivariant), as in the papers.
 *
 * <p>Numerics: where X is within 1e-9 or so of 1 (steep sigmoids, well-separated scores), 1 - X
 * keeps few correct digits and so does log(1 - X), as in diffsort with PyTorch; value and
 * gradient agree with the reference there, but a central difference of the value is noisy.
 *
 * <p>Implementation: one forward over the values keeps alpha, f' and b - a per comparator
 * (3 C doubles, C the number of comparators: m (m - 1) / 2 for odd-even, O(m log^2 m) for
 * bitonic). Each row of X depends on the values only through the alphas, so X is never held:
 * row d is run through the comparators from the unit vector e_d, its loss terms taken, and its
 * adjoint run back at once (one double of history per comparator, its two inputs' difference,
 * reused for every row), adding into dL/dalpha. Time O(m C), memory 5 C + O(m) doubles per query
 * (with dL/dalpha): for bitonic O(m log^2 m), far below X's m^2; for odd-even, whose C is
 * m (m - 1) / 2, about 2.5 m^2, more than X itself, since every one of its comparators has its
 * own alpha. diffsort's dense formulation holds X and takes O(m^3) time per layer.
 *
 * <pre>{@code
 * RankingLoss loss = DiffSortLoss.of(SortingNetwork.Kind.BITONIC, SwapSigmoid.CAUCHY, 10, Integer.MAX_VALUE);
 * }</pre>
 *
 * <p>Thread-safety: immutable.
 */
public final class DiffSortLoss implements RankingLoss {
    private static final double LOG_FLOOR = -100;
    private static final double BCE_EPS = 1e-12;

    private final SortingNetwork.Kind kind;
    private final SwapSigmoid sigmoid;
    private final double steepness;
    private final int k;

    private DiffSortLoss(SortingNetwork.Kind kind, SwapSigmoid sigmoid, double steepness, int k) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.sigmoid = Objects.requireNonNull(sigmoid, "sigmoid");
        this.steepness = Inputs.requirePositiveFinite("sorting-network steepness", steepness);
        this.k = Inputs.requireCutoff("diffsort", k);
    }

    /** The loss on {@code kind} networks with {@code sigmoid} at {@code steepness}, over the top {@code k} wires ({@code Integer.MAX_VALUE}: all). */
    public static DiffSortLoss of(SortingNetwork.Kind kind, SwapSigmoid sigmoid, double steepness, int k) {
        return new DiffSortLoss(kind, sigmoid, steepness, k);
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new QueryLossOp(name(), batch, this::query, 0L, 0L, 0), scores);
    }

    /** "diffsort-NETWORK-SIGMOID[@k]:STEEPNESS", e.g. "diffsort-bitonic-cauchy@10:10.0". */
    @Override
    public String name() {
        return "diffsort-" + kind.key() + "-" + sigmoid.key() + (k == Integer.MAX_VALUE ? "" : "@" + k) + ":"
                + steepness;
    }

    private double query(double[] s, float[] y, int from, int m, SplittableRandom unused, double weight,
            double[] grad) {
        SortingNetwork net = SortingNetwork.of(kind, m);
        int comparators = net.size();
        double[] alpha = new double[comparators];
        double[] slope = new double[comparators];
        double[] diff = new double[comparators];
        double[] x = Arrays.copyOfRange(s, from, from + m);
        for (int c = 0; c < comparators; c++) {
            int p = net.first(c);
            int q = net.second(c);
            double a = x[p];
            double b = x[q];
            double v = steepness * (b - a);
            double f = sigmoid.value(v);
            alpha[c] = f;
            slope[c] = steepness * sigmoid.derivative(v);
            diff[c] = b - a;
            double min = f * a + (1 - f) * b;
            double max = (1 - f) * a + f * b;
            x[net.minToSecond(c) ? q : p] = min;
            x[net.minToSecond(c) ? p : q] = max;
        }
        int[] lo = new int[m];
        int[] hi = new int[m];
        targetBlocks(y, from, m, lo, hi);
        int top = m - Math.min(k, m);
        double norm = 1.0 / ((double) m * (m - top));
        double[] row = new double[m];
        double[] adj = new double[m];
        double[] history = new double[comparators];
        double[] alphaAdj = new double[comparators];
        double loss = 0;
        for (int d = 0; d < m; d++) {
            Arrays.fill(row, 0);
            row[d] = 1;
            for (int c = 0; c < comparators; c++) {
                int p = net.first(c);
                int q = net.second(c);
                double up = row[p];
                double uq = row[q];
                history[c] = up - uq;
                double f = alpha[c];
                double min = f * up + (1 - f) * uq;
                double max = (1 - f) * up + f * uq;
                row[net.minToSecond(c) ? q : p] = min;
                row[net.minToSecond(c) ? p : q] = max;
            }
            Arrays.fill(adj, 0);
            for (int w = top; w < m; w++) {
                double t = w >= lo[d] && w < hi[d] ? 1.0 / (hi[d] - lo[d]) : 0;
                double xv = row[net.output(w)];
                loss -= t * Math.max(Math.log(xv), LOG_FLOOR) + (1 - t) * Math.max(Math.log(1 - xv), LOG_FLOOR);
                adj[net.output(w)] = (xv - t) / Math.max(xv * (1 - xv), BCE_EPS) * norm;
            }
            for (int c = comparators - 1; c >= 0; c--) {
                int p = net.first(c);
                int q = net.second(c);
                int minWire = net.minToSecond(c) ? q : p;
                int maxWire = net.minToSecond(c) ? p : q;
                double gMin = adj[minWire];
                double gMax = adj[maxWire];
                double f = alpha[c];
                alphaAdj[c] += (gMin - gMax) * history[c];
                adj[p] = f * gMin + (1 - f) * gMax;
                adj[q] = (1 - f) * gMin + f * gMax;
            }
        }
        // The values' reverse sweep: each alpha depends on its comparator's inputs, which depend on earlier alphas.
        double[] xAdj = new double[m];
        for (int c = comparators - 1; c >= 0; c--) {
            int p = net.first(c);
            int q = net.second(c);
            double gMin = xAdj[net.minToSecond(c) ? q : p];
            double gMax = xAdj[net.minToSecond(c) ? p : q];
            double f = alpha[c];
            // d min / d alpha = a - b, d max / d alpha = b - a.
            double total = alphaAdj[c] - (gMin - gMax) * diff[c];
            xAdj[p] = f * gMin + (1 - f) * gMax - total * slope[c];
            xAdj[q] = (1 - f) * gMin + f * gMax + total * slope[c];
        }
        for (int j = 0; j < m; j++) {
            grad[from + j] += weight * xAdj[j];
        }
        return loss * norm;
    }

    /**
     * The block of wires [lo, hi) of each document in the ascending order of the grades: its
     * grade's tie group, so that T_dw = 1 / (hi - lo) on the block.
     */
    private static void targetBlocks(float[] y, int from, int m, int[] lo, int[] hi) {
        float[] sorted = Arrays.copyOfRange(y, from, from + m);
        Arrays.sort(sorted);
        for (int d = 0; d < m; d++) {
            float g = y[from + d];
            int first = lowerBound(sorted, g);
            int end = first;
            while (end < m && sorted[end] == g) {
                end++;
            }
            lo[d] = first;
            hi[d] = end;
        }
    }

    private static int lowerBound(float[] sorted, float g) {
        int low = 0;
        int high = sorted.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (sorted[mid] < g) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
