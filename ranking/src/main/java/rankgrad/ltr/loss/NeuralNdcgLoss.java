package rankgrad.ltr.loss;

import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.rank.Inputs;
import rankgrad.ltr.rank.NeuralSort;
import rankgrad.ltr.rank.RelaxedSort;
import rankgrad.ltr.rank.SinkhornScaling;
import rankgrad.ltr.rank.PrilloSoftSort;

/**
 * NeuralNDCG (Pobrotyn and Bialobrzeski 2021, Eq. 7-8) and its relatives: minus the nDCG@k of the
 * gains sorted by a relaxed permutation matrix,
 *
 * <pre>
 *   L_q = -(1 / IDCG@k) sum_{i &lt; min(k, m)} D(i + 1) sum_j S(P)_ij (2^{y_j} - 1),
 * </pre>
 *
 * P = {@link NeuralSort} or {@link PrilloSoftSort} at temperature tau, S = {@link SinkhornScaling} (for
 * NeuralNDCG at most 50 iterations to tolerance 1e-6, as in allRank; none for the plain
 * {@code neuralsort} and {@code softsort} losses), D(r) = 1 / log2(1 + r), IDCG@k of the query's
 * grades. Averaged over the batch's queries; a query without relevant documents gives 0 and a zero
 * gradient and counts in the mean (allRank leaves such queries out of its mean, and divides by
 * IDCG + 1e-10: see docs/losses.md).
 *
 * <p>The bilinear form u^T S(P) g with u_i = -D(i + 1) / IDCG is evaluated row by row (
 * {@link SinkhornScaling#bilinear}), so a query of m documents needs O(m) memory without
 * Sinkhorn and 4 (T + 1) m doubles with T iterations; time O(m^2) per pass, 2T + 2 passes.
 *
 * <pre>{@code
 * RankingLoss loss = NeuralNdcgLoss.neuralNdcg(NeuralSort.of(1.0), 10, 50);
 * }</pre>
 *
 * <p>Thread-safety: immutable.
 */
public final class NeuralNdcgLoss implements RankingLoss {
    /** allRank's Sinkhorn tolerance. */
    public static final double SINKHORN_TOLERANCE = 1e-6;
    /** allRank's maximum number of Sinkhorn iterations. */
    public static final int SINKHORN_ITERATIONS = 50;

    private final RelaxedSort sort;
    private final int k;
    private final SinkhornScaling sinkhorn;
    private final String name;

    private NeuralNdcgLoss(RelaxedSort sort, int k, SinkhornScaling sinkhorn, String name) {
        this.sort = Objects.requireNonNull(sort, "sort");
        this.k = k;
        this.sinkhorn = Objects.requireNonNull(sinkhorn, "sinkhorn");
        this.name = name;
    }

    /**
     * NeuralNDCG@k: {@code sort}'s matrix after at most {@code iterations} Sinkhorn iterations (tolerance
     * {@link #SINKHORN_TOLERANCE}); {@code k = Integer.MAX_VALUE} for the whole list.
     */
    public static NeuralNdcgLoss neuralNdcg(RelaxedSort sort, int k, int iterations) {
        return of(sort, k, SinkhornScaling.of(iterations, SINKHORN_TOLERANCE));
    }

    /** Minus nDCG@k through {@code sort}'s matrix with the given scaling (none: the matrix itself). */
    public static NeuralNdcgLoss of(RelaxedSort sort, int k, SinkhornScaling sinkhorn) {
        Inputs.requireCutoff("NeuralNDCG", k);
        String cut = k == Integer.MAX_VALUE ? "" : "@" + k;
        String name = sinkhorn.maxIterations() == 0
                ? sort.name().replaceFirst(":", cut + ":")
                : "neural-ndcg" + cut + ":" + sort.tau() + ":" + sinkhorn.maxIterations()
                        + (sort instanceof PrilloSoftSort ? ":softsort" : "");
        return new NeuralNdcgLoss(sort, k, sinkhorn, name);
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new QueryLossOp(name, batch, this::query, 0L, 0L, 0), scores);
    }

    /**
     * The registry's name: "neuralsort[@k]:TAU" and "softsort[@k]:TAU" without scaling,
     * "neural-ndcg[@k]:TAU:ITERATIONS" with it (":softsort" appended for PrilloSoftSort's matrix).
     */
    @Override
    public String name() {
        return name;
    }

    private double query(double[] s, float[] y, int from, int m, SplittableRandom unused, double weight,
            double[] grad) {
        int cut = Math.min(k, m);
        double[] gains = new double[m];
        for (int j = 0; j < m; j++) {
            gains[j] = Math.pow(2, y[from + j]) - 1;
        }
        double[] ideal = gains.clone();
        Arrays.sort(ideal);
        double idcg = 0;
        for (int i = 0; i < cut; i++) {
            idcg += ideal[m - 1 - i] * discount(i);
        }
        double[] u = new double[m];
        for (int i = 0; i < cut; i++) {
            u[i] = -discount(i) / idcg;
        }
        return sinkhorn.bilinear(sort.rows(s, from, m), u, gains, weight, grad, from);
    }

    /** D(i + 1) = 1 / log2(i + 2) for position i (0 = top). */
    private static double discount(int i) {
        return Math.log(2) / Math.log(i + 2);
    }
}
