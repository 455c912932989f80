package rankgrad.ltr.loss;

import java.util.function.IntConsumer;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.metric.ExactMetrics;
import rankgrad.ltr.pairwise.PairTruncation;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.rank.Float64Reference;
import rankgrad.ltr.rank.Inputs;

/**
 * The custom-gradient node of {@link LightGbmLambdaRankLoss} (docs/design.md §3.15): per query, the
 * positions (a stable sort by score, LightGBM's {@code std::stable_sort}), the gains 2^y - 1 and
 * discounts D(r) / maxDCG@T in O(m), the truncated pair lambdas on the pairwise backend in O(m^2),
 * then LightGBM's per-query normalization in O(m). The value is 1 - NDCG@T of the current ranking,
 * the residual the lambdas scaled to the batch mean.
 */
final class LightGbmLambdaOp implements Op<Tensor> {
    /** Documents per task of the O(m) per-query work. */

    private final String name;
    private final QueryBatch batch;
    private final PairwiseBackend backend;
    private final double sigma;
    private final int level;
    private final boolean normalize;

    LightGbmLambdaOp(String name, QueryBatch batch, PairwiseBackend backend, double sigma, int level,
            boolean normalize) {
        this.name = name;
        this.batch = batch;
        this.backend = backend;
        this.sigma = sigma;
        this.level = level;
        this.normalize = normalize;
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireLossInput(name, scores, batch);
        int n = scores.size();
        int[] offsets = batch.offsets();
        int[] inputOrder = inputOrderKeys(offsets);
        double[] ranks = new double[n];
        double[] gains = new double[n];
        double[] discounts = new double[n];
        double[] dcgShortfall = new double[batch.queries()];
        Tensor grad = Tensor.zerosLike(scores);
        double[] pairLambdas = new double[n];
        if (scores.dtype() == DType.F32) {
            float[] r = new float[n];
            backend.exactRanksF32(scores.f32(), offsets, inputOrder, r);
            for (int i = 0; i < n; i++) {
                ranks[i] = r[i];
            }
            weights(ranks, gains, discounts, dcgShortfall);
            float[] lambdas = new float[n];
            backend.logisticPairsF32((float) sigma, scores.f32(), batch.labels(), narrow(gains), narrow(discounts),
                    new PairTruncation(r, level, normalize), offsets, grad.f32(), lambdas);
            for (int i = 0; i < n; i++) {
                pairLambdas[i] = lambdas[i];
            }
        } else {
            Float64Reference.exactRanks(scores.f64(), offsets, inputOrder, ranks);
            weights(ranks, gains, discounts, dcgShortfall);
            Float64Reference.truncatedLambdas(sigma, scores.f64(), batch.labels(), gains, discounts, ranks, level,
                    normalize, offsets, grad.f64(), pairLambdas);
        }
        int queries = batch.queries();
        forEachQuery(q -> normalizeQuery(q, scores, grad, pairLambdas, 1.0 / queries));
        double loss = 0;
        for (double v : dcgShortfall) {
            loss += v;
        }
        return Op.result(Tensor.scalar(scores.dtype(), loss / queries), grad);
    }

    /** Per query a key array 0..m-1: ties keep input order, as LightGBM's stable sort does. */
    private static int[] inputOrderKeys(int[] offsets) {
        int[] keys = new int[offsets[offsets.length - 1]];
        for (int q = 0; q + 1 < offsets.length; q++) {
            for (int i = offsets[q]; i < offsets[q + 1]; i++) {
                keys[i] = i - offsets[q];
            }
        }
        return keys;
    }

    /**
     * Gains 2^y - 1 and discounts D(r) / maxDCG@T at the positions (LightGBM's label_gain and
     * inverse_max_dcgs_, rank_objective.hpp lines 168-175, 231-237), and 1 - NDCG@T per query (0
     * without relevant documents).
     */
    private void weights(double[] ranks, double[] gains, double[] discounts, double[] dcgShortfall) {
        forEachQuery(q -> {
            int from = batch.start(q);
            int m = batch.size(q);
            double maxDcg = ExactMetrics.idealDcg(batch.labels(), from, m, level);
            double inverse = maxDcg > 0 ? 1.0 / maxDcg : 0.0;
            double dcg = 0;
            for (int i = from; i < from + m; i++) {
                gains[i] = ExactMetrics.gain(batch.labels()[i]);
                int r = (int) ranks[i];
                discounts[i] = ExactMetrics.discount(r) * inverse;
                if (r <= level) {
                    dcg += gains[i] * ExactMetrics.discount(r);
                }
            }
            dcgShortfall[q] = maxDcg > 0 ? 1.0 - dcg * inverse : 0.0;
        });
    }

    /**
     * LightGBM's normalization of one query (lines 248 and 265-271): sum_lambdas = 2 sum_k
     * pairLambdas_k; the lambdas are scaled by log2(1 + sum_lambdas) / sum_lambdas. LightGBM skips the
     * score-distance division when all scores are equal (best_score == worst_score), where the backend
     * divided every pair by exactly 0.01f + 0: that factor is undone here. The gradient is finally
     * scaled to the batch mean.
     */
    private void normalizeQuery(int q, Tensor scores, Tensor grad, double[] pairLambdas, double scale) {
        int from = batch.start(q);
        int end = from + batch.size(q);
        double factor = scale;
        if (normalize && batch.hasRelevant(q)) {
            double sum = 0;
            double best = Double.NEGATIVE_INFINITY;
            double worst = Double.POSITIVE_INFINITY;
            for (int i = from; i < end; i++) {
                sum += pairLambdas[i];
                best = Math.max(best, scores.get(i));
                worst = Math.min(worst, scores.get(i));
            }
            sum *= 2;
            if (best == worst) {
                sum *= PairTruncation.SCORE_DISTANCE_OFFSET;
                factor *= PairTruncation.SCORE_DISTANCE_OFFSET;
            }
            if (sum > 0) {
                factor *= Math.log1p(sum) / Math.log(2) / sum;
            }
        }
        boolean relevant = batch.hasRelevant(q);
        for (int i = from; i < end; i++) {
            grad.set(i, relevant ? factor * grad.get(i) : 0.0);
        }
    }

    private static float[] narrow(double[] values) {
        float[] out = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (float) values[i];
        }
        return out;
    }

    private void forEachQuery(IntConsumer body) {
        LogisticPairsOp.forEachQuery(batch, body);
    }

    @Override
    public Tensor[] backward(Tensor grad, Tensor gradOut, boolean[] needsGrad) {
        return LogisticPairsOp.scaled(grad, gradOut, needsGrad);
    }

    @Override
    public String name() {
        return name;
    }
}
