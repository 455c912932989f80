package rankgrad.ltr.loss;

import java.util.Arrays;
import java.util.Objects;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.internal.pairwise.WorkPartition;
import rankgrad.ltr.rank.DifferentiableRanks;
import rankgrad.ltr.rank.Inputs;
import rankgrad.ltr.rank.RankMetric;
import rankgrad.ltr.rank.RankMode;

/**
 * One custom-gradient node for a loss that is minus a per-query function of rank variables,
 * L = -(1/Q) sum_q M_q(r_q), with the ranks and the function fused: forward computes the ranks of
 * a {@link DifferentiableRanks} operator (a {@link RankMode}'s O(m^2) pair work or sort in the
 * {@link PairwiseBackend}, soft ranks' sort and isotonic regression), then per query the value M_q
 * and its outer derivative g = dL/dr on the CPU (O(m)); backward turns g into dL/ds with the
 * operator's vector-Jacobian product. No rank tensor, no pair array, no per-query node enters the
 * graph. The twin-sigmoid losses, ApproxNDCG, SDCG, SHF-SDCG and every METRIC~OPERATOR loss are
 * all this node with another operator and function.
 *
 * <p>Positions: a function that reads them ({@link RankFunction#readsPositions()}) gets the order
 * of exact ranks, or, for an operator whose ranks are not exact, the order of the scores with ties
 * broken by the call's tie keys: locally constant in the scores, so the value stays a function
 * whose gradient the operator's backward gives.
 *
 * <p>float32 scores give float32 ranks, rank gradients and score gradients; the per-query function
 * reads the ranks widened to float64. Per-query work runs in tasks fixed by the batch's offsets and
 * the loss is summed in query order, so results do not depend on the number of threads.
 */
final class MetricLossOp implements Op<MetricLossOp.Saved> {
    /** Documents per task of the O(m) per-query work. */
    private static final int DOCS_PER_TASK = 2048;

    /** A per-query function of rank variables, the M_q of the loss. */
    @FunctionalInterface
    interface RankFunction {
        /**
         * M_q at the rank variables {@code r} (indexed 0..m-1) of query {@code q} of {@code batch},
         * writing dM_q/dr_i into {@code grad[i]} (all m overwritten); 0 and a zero gradient for a
         * query without relevant documents.
         *
         * @param order the documents by position (order[p] at position p + 1) when the ranks are
         *     exact, else null
         */
        double evaluate(QueryBatch batch, int q, double[] r, int[] order, double[] grad);

        /** Whether {@link #evaluate} reads {@code order} when the ranks are not exact. */
        default boolean readsPositions() {
            return false;
        }

        /** The differentiable metric {@code metric} of each query (Yu et al. Eq. 13-16). */
        static RankFunction of(RankMetric metric) {
            Objects.requireNonNull(metric, "metric");
            return new RankFunction() {
                @Override
                public double evaluate(QueryBatch b, int q, double[] r, int[] order, double[] grad) {
                    return metric.evaluate(b.labels(), b.start(q), b.size(q), r, order, grad);
                }

                @Override
                public boolean readsPositions() {
                    return metric.readsPositions();
                }
            };
        }
    }

    /** What backward needs: the forward call's ranks (with their backward) and dL/dr in the scores' dtype. */
    record Saved(DifferentiableRanks.Ranked ranked, Tensor rankGrad) {
    }

    private final String name;
    private final QueryBatch batch;
    private final DifferentiableRanks ranks;
    private final int[] tieKeys;
    private final RankFunction function;

    /** The node of a loss built on a fixed {@link RankMode}. */
    MetricLossOp(String name, QueryBatch batch, PairwiseBackend backend, RankMode mode, RankFunction function) {
        this(name, batch, DifferentiableRanks.of(mode, backend), null, function);
    }

    /**
     * The node of {@code function} through {@code ranks}; {@code tieKeys} (per query a permutation,
     * flat over the batch) go to the operator and order tied scores for position-reading functions
     * on inexact ranks; null: input order.
     */
    MetricLossOp(String name, QueryBatch batch, DifferentiableRanks ranks, int[] tieKeys, RankFunction function) {
        this.name = name;
        this.batch = batch;
        this.ranks = Objects.requireNonNull(ranks, "ranks");
        this.tieKeys = tieKeys;
        this.function = Objects.requireNonNull(function, "function");
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireLossInput(name, scores, batch);
        int queries = batch.queries();
        DifferentiableRanks.Ranked ranked = ranks.forward(scores, batch, tieKeys);
        Tensor r = ranked.ranks();
        Tensor rankGrad = Tensor.zerosLike(scores);
        double[] values = new double[queries];
        int[] blocks = WorkPartition.queryBlocks(batch.offsets(), DOCS_PER_TASK);
        Parallel.forEach(blocks.length - 1, t -> {
            for (int q = blocks[t]; q < blocks[t + 1]; q++) {
                values[q] = evaluateQuery(q, scores, r, rankGrad, -1.0 / queries);
            }
        });
        double loss = 0;
        for (int q = 0; q < queries; q++) {
            loss -= values[q];
        }
        return Op.result(Tensor.scalar(scores.dtype(), loss / queries), new Saved(ranked, rankGrad));
    }

    /** M_q, and scale * dM_q/dr written into rankGrad for the query's documents. */
    private double evaluateQuery(int q, Tensor scores, Tensor ranks, Tensor rankGrad, double scale) {
        int from = batch.start(q);
        int m = batch.size(q);
        double[] r = new double[m];
        for (int i = 0; i < m; i++) {
            r[i] = ranks.get(from + i);
        }
        int[] order = this.ranks.exact() ? orderOf(r, q)
                : function.readsPositions() ? scoreOrder(scores, from, m) : null;
        double[] grad = new double[m];
        double value = function.evaluate(batch, q, r, order, grad);
        for (int i = 0; i < m; i++) {
            rankGrad.set(from + i, scale * grad[i]);
        }
        return value;
    }

    /** The documents by score, highest first, ties by the call's tie keys (input order without). */
    private int[] scoreOrder(Tensor scores, int from, int m) {
        int[] keys = tieKeys == null ? null : Arrays.copyOfRange(tieKeys, from, from + m);
        return scores.dtype() == DType.F32 ? Ranking.order(scores.f32(), from, m, keys)
                : Ranking.order(scores.f64(), from, m, keys);
    }

    /** The documents by position, from exact ranks; checks that the operator returned a permutation of 1..m. */
    private int[] orderOf(double[] r, int q) {
        int m = r.length;
        int[] order = new int[m];
        boolean[] taken = new boolean[m];
        for (int i = 0; i < m; i++) {
            int p = (int) r[i] - 1;
            if (p < 0 || p >= m || p + 1 != r[i] || taken[p]) {
                throw new IllegalStateException(ranks.name() + " returned exact ranks for query "
                        + q + " that are not a permutation of 1.." + m + " (rank " + r[i] + " of document " + i + ")");
            }
            taken[p] = true;
            order[p] = i;
        }
        return order;
    }

    @Override
    public Tensor[] backward(Saved saved, Tensor gradOut, boolean[] needsGrad) {
        if (!needsGrad[0]) {
            return new Tensor[] {null};
        }
        double c = gradOut.item();
        Tensor rankGrad = saved.rankGrad();
        if (c != 1.0) {
            Tensor scaled = Tensor.zerosLike(rankGrad);
            for (int i = 0; i < scaled.size(); i++) {
                scaled.set(i, c * rankGrad.get(i));
            }
            rankGrad = scaled;
        }
        return new Tensor[] {saved.ranked().vjp(rankGrad)};
    }

    @Override
    public String name() {
        return name;
    }
}
