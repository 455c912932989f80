package rankgrad.ltr.rank;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.WorkPartition;

/**
 * One custom-gradient node for a whole metric loss, L = -(1/Q) sum_q M(r_q), with the ranks and
 * the metric fused: forward computes the ranks (exact with tie keys, or pi^-), the metric value
 * and its outer derivative g = dL/dr, O(m) per query; backward turns g into dL/ds with one pass of
 * O(m^2) pair terms per query ({@link PairwiseBackend#rankGradientF32}). No rank tensor, no pair
 * array, no per-query node enters the graph.
 */
final class MetricLossOp implements Op<MetricLossOp.Saved> {
    /** Documents per task of the O(m) per-query metric work. */
    private static final int DOCS_PER_TASK = 2048;

    /** What backward needs: the scores and dL/dr (both in the scores' dtype). */
    record Saved(Tensor scores, Tensor rankGrad) {
    }

    private final String name;
    private final QueryBatch batch;
    private final RankMetric metric;
    private final PairwiseBackend backend;
    private final BackwardType type;
    private final double alpha;
    private final int[] tieKeys;

    /**
     * @param tieKeys the exact ranks' tie keys, flat over the batch; null for the approximate
     *     ranks pi^- with steepness {@code alpha}
     */
    MetricLossOp(String name, QueryBatch batch, RankMetric metric, PairwiseBackend backend, BackwardType type,
            double alpha, int[] tieKeys) {
        this.name = name;
        this.batch = batch;
        this.metric = metric;
        this.backend = backend;
        this.type = type;
        this.alpha = alpha;
        this.tieKeys = tieKeys;
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireScores(name, scores, batch);
        int[] offsets = batch.offsets();
        int queries = batch.queries();
        Tensor ranks = Tensor.zerosLike(scores);
        boolean f32 = scores.dtype() == DType.F32;
        if (tieKeys != null && f32) {
            backend.exactRanksF32(scores.f32(), offsets, tieKeys, ranks.f32());
        } else if (tieKeys != null) {
            backend.exactRanksF64(scores.f64(), offsets, tieKeys, ranks.f64());
        } else if (f32) {
            backend.approxRanksF32(scores.f32(), offsets, (float) alpha, ranks.f32());
        } else {
            backend.approxRanksF64(scores.f64(), offsets, alpha, ranks.f64());
        }
        Tensor rankGrad = Tensor.zerosLike(scores);
        double[] values = new double[queries];
        int[] blocks = WorkPartition.queryBlocks(offsets, DOCS_PER_TASK);
        Parallel.forEach(blocks.length - 1, t -> {
            for (int q = blocks[t]; q < blocks[t + 1]; q++) {
                values[q] = evaluateQuery(q, ranks, rankGrad, -1.0 / queries);
            }
        });
        double loss = 0;
        for (int q = 0; q < queries; q++) {
            loss -= values[q];
        }
        return Op.result(Tensor.scalar(scores.dtype(), queries == 0 ? 0.0 : loss / queries),
                new Saved(scores, rankGrad));
    }

    /** M_q, and scale * dM_q/dr written into rankGrad for the query's documents. */
    private double evaluateQuery(int q, Tensor ranks, Tensor rankGrad, double scale) {
        int from = batch.start(q);
        int m = batch.size(q);
        double[] r = new double[m];
        for (int i = 0; i < m; i++) {
            r[i] = ranks.get(from + i);
        }
        int[] order = tieKeys == null ? null : orderOf(r, q);
        double[] grad = new double[m];
        double value = metric.evaluate(batch.labels(), from, m, r, order, grad);
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
        return new Tensor[] {RankGradients.of(backend, type, alpha, saved.scores(), batch, rankGrad)};
    }

    @Override
    public String name() {
        return name;
    }
}
