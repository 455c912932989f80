package rankgrad.ltr.loss;

import java.util.Objects;
import java.util.function.IntConsumer;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.metric.ExactMetrics;
import rankgrad.ltr.rank.Float64Reference;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.internal.pairwise.WorkPartition;
import rankgrad.ltr.rank.Inputs;

/**
 * The custom-gradient node of RankNet and LambdaRank (docs/design.md §3.5): the weighted pairwise
 * logistic cost of each query, C_q = sum_{y_i &gt; y_j} w_ij log(1 + e^{-sigma_s (s_i - s_j)}),
 * averaged over the batch's queries, with its gradient gathered per document in the same pass
 * ({@link PairwiseBackend#logisticPairsF32}; Burges 2006, Sec. 5: O(m^2) cheap pair terms,
 * back-propagated once) and kept as the residual.
 *
 * <p>The weights are RankNet's w_ij = 1 or LambdaRank's w_ij = |dNDCG@k_ij|; for LambdaRank the
 * exact positions (a sort with seeded tie keys), the gains and the discounts D_k(position) / IDCG@k
 * are O(m) per query on the CPU, the pair terms run in the backend. float32 scores are worked in
 * float32, float64 scores in float64; per-query work runs in tasks fixed by the batch and the loss
 * is summed in query order, so results do not depend on the number of threads.
 */
final class LogisticPairsOp implements Op<Tensor> {
    /** Documents per task of the O(m) per-query work. */
    private static final int DOCS_PER_TASK = 2048;

    /** The pair weights w_ij. */
    sealed interface Weights permits Unit, DeltaNdcg {
    }

    /** RankNet: every pair weighs 1. */
    record Unit() implements Weights {
    }

    /**
     * LambdaRank: w_ij = |2^{y_i} - 2^{y_j}| |D_k(r_i) - D_k(r_j)| / IDCG@k at the exact positions r
     * with ties broken by {@code tieKeys}, D_k(r) = 1 / log2(1 + r) for r &lt;= k, else 0.
     *
     * @param truncation k, or 0 for none (k = m)
     * @param tieKeys per query a permutation of 0..m-1, flat over the batch
     */
    record DeltaNdcg(int truncation, int[] tieKeys) implements Weights {
        DeltaNdcg {
            Objects.requireNonNull(tieKeys, "tieKeys");
        }
    }

    private final String name;
    private final QueryBatch batch;
    private final PairwiseBackend backend;
    private final double sigma;
    private final Weights weights;

    LogisticPairsOp(String name, QueryBatch batch, PairwiseBackend backend, double sigma, Weights weights) {
        this.name = name;
        this.batch = batch;
        this.backend = Objects.requireNonNull(backend, "backend");
        this.sigma = sigma;
        this.weights = Objects.requireNonNull(weights, "weights");
    }

    /** Forward: the mean cost; the residual is its gradient for a unit upstream gradient. */
    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireLossInput(name, scores, batch);
        int[] offsets = batch.offsets();
        Tensor grad = Tensor.zerosLike(scores);
        Tensor cost = Tensor.zerosLike(scores);
        if (scores.dtype() == DType.F32) {
            float[][] w = weights instanceof DeltaNdcg d ? deltaNdcgF32(scores.f32(), d) : new float[2][];
            backend.logisticPairsF32((float) sigma, scores.f32(), batch.labels(), w[0], w[1], offsets, grad.f32(),
                    cost.f32());
        } else {
            double[][] w = weights instanceof DeltaNdcg d ? deltaNdcgF64(scores.f64(), d) : new double[2][];
            Float64Reference.logisticPairs(sigma, scores.f64(), batch.labels(), w[0], w[1], offsets, grad.f64(),
                    cost.f64());
        }
        int queries = batch.queries();
        double[] perQuery = new double[queries];
        forEachQuery(q -> perQuery[q] = meanShare(q, grad, cost, 1.0 / queries));
        double loss = 0;
        for (double v : perQuery) {
            loss += v;
        }
        return Op.result(Tensor.scalar(scores.dtype(), loss / queries), grad);
    }

    /**
     * The cost of query q, and its gradient scaled in place to the mean's; a query without relevant
     * documents has no pair of different labels, so its cost and gradient are already 0, but are set
     * so whatever the backend left there.
     */
    private double meanShare(int q, Tensor grad, Tensor cost, double scale) {
        int from = batch.start(q);
        int end = from + batch.size(q);
        boolean relevant = batch.hasRelevant(q);
        double sum = 0;
        for (int i = from; i < end; i++) {
            sum += cost.get(i);
            grad.set(i, relevant ? scale * grad.get(i) : 0.0);
        }
        return relevant ? sum : 0.0;
    }

    /** Gains 2^y - 1 and discounts D_k(position) / IDCG@k per document, in float32. */
    private float[][] deltaNdcgF32(float[] scores, DeltaNdcg d) {
        float[] ranks = new float[scores.length];
        backend.exactRanksF32(scores, batch.offsets(), d.tieKeys(), ranks);
        float[] gains = new float[scores.length];
        float[] discounts = new float[scores.length];
        forEachQuery(q -> {
            int from = batch.start(q);
            int m = batch.size(q);
            double invIdcg = inverseIdealDcg(from, m, d.truncation());
            int k = d.truncation() == 0 ? m : d.truncation();
            for (int i = from; i < from + m; i++) {
                gains[i] = (float) ExactMetrics.gain(batch.labels()[i]);
                int r = (int) ranks[i];
                discounts[i] = r <= k ? (float) (ExactMetrics.discount(r) * invIdcg) : 0f;
            }
        });
        return new float[][] {gains, discounts};
    }

    /** {@link #deltaNdcgF32} in float64. */
    private double[][] deltaNdcgF64(double[] scores, DeltaNdcg d) {
        double[] ranks = new double[scores.length];
        Float64Reference.exactRanks(scores, batch.offsets(), d.tieKeys(), ranks);
        double[] gains = new double[scores.length];
        double[] discounts = new double[scores.length];
        forEachQuery(q -> {
            int from = batch.start(q);
            int m = batch.size(q);
            double invIdcg = inverseIdealDcg(from, m, d.truncation());
            int k = d.truncation() == 0 ? m : d.truncation();
            for (int i = from; i < from + m; i++) {
                gains[i] = ExactMetrics.gain(batch.labels()[i]);
                int r = (int) ranks[i];
                discounts[i] = r <= k ? ExactMetrics.discount(r) * invIdcg : 0.0;
            }
        });
        return new double[][] {gains, discounts};
    }

    /** 1 / IDCG@k, or 0 for a query without relevant documents (all its weights are then 0). */
    private double inverseIdealDcg(int from, int m, int truncation) {
        double idcg = ExactMetrics.idealDcg(batch.labels(), from, m, truncation == 0 ? m : truncation);
        return idcg > 0 ? 1.0 / idcg : 0.0;
    }

    private void forEachQuery(IntConsumer body) {
        forEachQuery(batch, body);
    }

    /**
     * Runs {@code body} for every query of {@code batch}, in tasks fixed by the batch's offsets (so
     * results do not depend on the thread count); shared with {@link LightGbmLambdaOp}.
     */
    static void forEachQuery(QueryBatch batch, IntConsumer body) {
        int[] blocks = WorkPartition.queryBlocks(batch.offsets(), DOCS_PER_TASK);
        Parallel.forEach(blocks.length - 1, t -> {
            for (int q = blocks[t]; q < blocks[t + 1]; q++) {
                body.accept(q);
            }
        });
    }

    @Override
    public Tensor[] backward(Tensor grad, Tensor gradOut, boolean[] needsGrad) {
        return scaled(grad, gradOut, needsGrad);
    }

    /**
     * The backward of a pair node whose forward saved dL/ds: that gradient times the upstream
     * scalar (by reference when it is 1); shared with {@link LightGbmLambdaOp}.
     */
    static Tensor[] scaled(Tensor grad, Tensor gradOut, boolean[] needsGrad) {
        if (!needsGrad[0]) {
            return new Tensor[] {null};
        }
        double c = gradOut.item();
        if (c == 1.0) {
            return new Tensor[] {grad};
        }
        Tensor scaled = Tensor.zerosLike(grad);
        for (int i = 0; i < grad.size(); i++) {
            scaled.set(i, c * grad.get(i));
        }
        return new Tensor[] {scaled};
    }

    @Override
    public String name() {
        return name;
    }
}
