package rankgrad.tornado;

import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.math.TornadoMath;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * Device kernel of the RankNet / LambdaRank pair terms (Burges et al.; Yue and Burges Eq. 2) over a
 * ragged batch: one work item per document row, looping over its query's documents. Buffer layout
 * as in {@link RankKernels}; sigma_s = params[0]; shape[2] = 1 weighs pairs by |gain_k - gain_j|
 * |disc_k - disc_j| (LambdaRank), 0 by 1 (RankNet; gains and discounts are then not read).
 */
public final class LogisticPairKernels {
    private LogisticPairKernels() {
    }

    /**
     * grad_k = -sum_{j: y_j != y_k} u_kj w_kj sigma_s / (1 + e^{u_kj sigma_s z_kj}) and cost_k =
     * sum_{j: y_k &gt; y_j} w_kj log(1 + e^{-sigma_s z_kj}), z_kj = s_k - s_j.
     */
    public static void logisticPairs(FloatArray scores, FloatArray labels, FloatArray gains, FloatArray discounts,
            IntArray offsets, IntArray shape, FloatArray params, FloatArray grad, FloatArray cost) {
        int n = shape.get(RankKernels.DOCS);
        int queries = shape.get(RankKernels.QUERIES);
        int weighted = shape.get(RankKernels.MODE);
        float sigma = params.get(0);
        for (@Parallel int k = 0; k < grad.getSize(); k++) {
            if (k < n) {
                int q = DeviceMath.queryOf(offsets, queries, k);
                int to = offsets.get(q + 1);
                float sk = scores.get(k);
                float yk = labels.get(k);
                float gk = weighted == 1 ? gains.get(k) : 0f;
                float dk = weighted == 1 ? discounts.get(k) : 0f;
                float g = 0f;
                float c = 0f;
                for (int j = offsets.get(q); j < to; j++) {
                    float yj = labels.get(j);
                    if (yj != yk) {
                        float w = 1f;
                        if (weighted == 1) {
                            w = TornadoMath.abs(gk - gains.get(j)) * TornadoMath.abs(dk - discounts.get(j));
                        }
                        float z = sigma * (sk - scores.get(j));
                        if (yk > yj) {
                            g -= w * sigma * DeviceMath.sigmoid(-z);
                            c += w * DeviceMath.softplus(-z);
                        } else {
                            g += w * sigma * DeviceMath.sigmoid(z);
                        }
                    }
                }
                grad.set(k, g);
                cost.set(k, c);
            }
        }
    }

    /**
     * LightGBM's LambdaRank pair terms (PairwiseBackend's truncated {@code logisticPairsF32};
     * docs/design.md §3.15): for j with y_j != y_k and min(rank_k, rank_j) &lt;= level, w =
     * |gain_k - gain_j| |disc_k - disc_j|, divided by 0.01 + |s_k - s_j| when truncation[1] = 1;
     * grad_k = -sum_{y_j &lt; y_k} w sigma_s sigma(-z) + sum_{y_j &gt; y_k} w sigma_s sigma(z) and
     * lambdas_k = sum_{y_j &lt; y_k} w sigma_s sigma(-z), z = sigma_s (s_k - s_j). truncation[0] =
     * level.
     */
    public static void truncatedLambdas(FloatArray scores, FloatArray labels, FloatArray gains, FloatArray discounts,
            FloatArray ranks, IntArray offsets, IntArray shape, FloatArray params, IntArray truncation, FloatArray grad,
            FloatArray lambdas) {
        int n = shape.get(RankKernels.DOCS);
        int queries = shape.get(RankKernels.QUERIES);
        float sigma = params.get(0);
        float level = truncation.get(0);
        int scoreDistance = truncation.get(1);
        for (@Parallel int k = 0; k < grad.getSize(); k++) {
            if (k < n) {
                int q = DeviceMath.queryOf(offsets, queries, k);
                int to = offsets.get(q + 1);
                float sk = scores.get(k);
                float yk = labels.get(k);
                float gk = gains.get(k);
                float dk = discounts.get(k);
                boolean topK = ranks.get(k) <= level;
                float g = 0f;
                float c = 0f;
                for (int j = offsets.get(q); j < to; j++) {
                    float yj = labels.get(j);
                    if (yj != yk && (topK || ranks.get(j) <= level)) {
                        float w = TornadoMath.abs(gk - gains.get(j)) * TornadoMath.abs(dk - discounts.get(j));
                        float d = sk - scores.get(j);
                        if (scoreDistance == 1) {
                            w = w / (0.01f + TornadoMath.abs(d));
                        }
                        float z = sigma * d;
                        if (yk > yj) {
                            float t = w * sigma * DeviceMath.sigmoid(-z);
                            g -= t;
                            c += t;
                        } else {
                            g += w * sigma * DeviceMath.sigmoid(z);
                        }
                    }
                }
                grad.set(k, g);
                lambdas.set(k, c);
            }
        }
    }
}
