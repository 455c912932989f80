package rankgrad.ltr.loss;

import java.util.Objects;
import rankgrad.autodiff.Op;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.internal.pairwise.WorkPartition;
import rankgrad.ltr.rank.Inputs;
import rankgrad.ltr.rank.RankMetric;
import rankgrad.ltr.rank.RankMode;

/**
 * One custom-gradient node for a loss that is minus a per-query function of rank variables,
 * L = -(1/Q) sum_q M_q(r_q), with the ranks and the function fused: forward computes the ranks of
 * the {@link RankMode} (O(m^2) pair work, or a sort, in the {@link PairwiseBackend}), then per
 * query the value M_q and its outer derivative g = dL/dr on the CPU (O(m)); backward turns g into
 * dL/ds with one pass of pair terms ({@link RankMode#scoreGradient}). No rank tensor, no pair
 * array, no per-query node enters the graph. The twin-sigmoid losses, ApproxNDCG, SDCG and
 * SHF-SDCG are all this node with another mode and function.
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

        /** The differentiable metric {@code metric} of each query (Yu et al. Eq. 13-16). */
        static RankFunction of(RankMetric metric) {
            Objects.requireNonNull(metric, "metric");
            return (b, q, r, order, grad) -> metric.evaluate(b.labels(), b.start(q), b.size(q), r, order, grad);
        }
    }

    /** What backward needs: the scores and dL/dr (both in the scores' dtype). */
    record Saved(Tensor scores, Tensor rankGrad) {
    }

    private final String name;
    private final QueryBatch batch;
    private final PairwiseBackend backend;
    private final RankMode mode;
    private final RankFunction function;

    MetricLossOp(String name, QueryBatch batch, PairwiseBackend backend, RankMode mode, RankFunction function) {
        this.name = name;
        this.batch = batch;
        this.backend = Objects.requireNonNull(backend, "backend");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.function = Objects.requireNonNull(function, "function");
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireLossInput(name, scores, batch);
        int queries = batch.queries();
        Tensor ranks = mode.ranks(backend, scores, batch);
        Tensor rankGrad = Tensor.zerosLike(scores);
        double[] values = new double[queries];
        int[] blocks = WorkPartition.queryBlocks(batch.offsets(), DOCS_PER_TASK);
        Parallel.forEach(blocks.length - 1, t -> {
            for (int q = blocks[t]; q < blocks[t + 1]; q++) {
                values[q] = evaluateQuery(q, ranks, rankGrad, -1.0 / queries);
            }
        });
        double loss = 0;
        for (int q = 0; q < queries; q++) {
            loss -= values[q];
        }
        return Op.result(Tensor.scalar(scores.dtype(), loss / queries), new Saved(scores, rankGrad));
    }

    /** M_q, and scale * dM_q/dr written into rankGrad for the query's documents. */
    private double evaluateQuery(int q, Tensor ranks, Tensor rankGrad, double scale) {
        int from = batch.start(q);
        int m = batch.size(q);
        double[] r = new double[m];
        for (int i = 0; i < m; i++) {
            r[i] = ranks.get(from + i);
        }
        int[] order = mode.exact() ? orderOf(r, q) : null;
        double[] grad = new double[m];
        double value = function.evaluate(batch, q, r, order, grad);
        for (int i = 0; i < m; i++) {
            rankGrad.set(from + i, scale * grad[i]);
        }
        return value;
    }

    /** The documents by position, from exact ranks; checks that the backend returned a permutation of 1..m. */
    private int[] orderOf(double[] r, int q) {
        int m = r.length;
        int[] order = new int[m];
        boolean[] taken = new boolean[m];
        for (int i = 0; i < m; i++) {
            int p = (int) r[i] - 1;
            if (p < 0 || p >= m || p + 1 != r[i] || taken[p]) {
                throw new IllegalStateException("pairwise backend " + backend.name() + " returned exact ranks for query "
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
        return new Tensor[] {mode.scoreGradient(backend, saved.scores(), batch, rankGrad)};
    }

    @Override
    public String name() {
        return name;
    }
}
