package rankgrad.tornado;

import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.math.TornadoMath;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * Device kernels of the approximate ranks and of the rank-to-score backward (Yu et al. Eq. 11, 20,
 * 21) over a ragged batch: one work item per document row k, looping over the documents j of k's
 * query; nothing of size m^2 exists. Buffers have a plan's capacity; {@code shape} holds the batch:
 * [0] documents n, [1] queries Q, [2] the backward type (1, 2 or 3); {@code offsets} holds Q + 1
 * entries (padded with n); rows k &gt;= n do nothing. Formulas: {@code
 * rankgrad.ltr.pairwise.PairwiseBackend}.
 *
 * <p>Static methods on TornadoVM types only; they also run as plain Java (the {@link Parallel}
 * loop then runs sequentially), which is how the tests check them without a device.
 */
public final class RankKernels {
    /** {@code shape} index of the document count. */
    static final int DOCS = 0;
    /** {@code shape} index of the query count. */
    static final int QUERIES = 1;
    /** {@code shape} index of the backward type or of the weighting flag. */
    static final int MODE = 2;

    private RankKernels() {
    }

    /** pi^-(k) = 1/2 + sum_j sigma(alpha (s_j - s_k)) (the j = k term adds the other 1/2); alpha = params[0]. */
    public static void approxRanks(FloatArray scores, IntArray offsets, IntArray shape, FloatArray params,
            FloatArray ranks) {
        int n = shape.get(DOCS);
        int queries = shape.get(QUERIES);
        float alpha = params.get(0);
        for (@Parallel int k = 0; k < ranks.getSize(); k++) {
            if (k < n) {
                int q = DeviceMath.queryOf(offsets, queries, k);
                int to = offsets.get(q + 1);
                float sk = scores.get(k);
                float sum = 0.5f;
                for (int j = offsets.get(q); j < to; j++) {
                    sum += DeviceMath.sigmoid(alpha * (scores.get(j) - sk));
                }
                ranks.set(k, sum);
            }
        }
    }

    /**
     * scoreGrad_k = sum_j d_kj (g_j - g_k) (type 1) or -sum_j d_kj (g_k + g_j) (types 2, 3) with
     * the pair derivative d_kj of the type in shape[2]; alpha = params[0].
     */
    public static void rankGradient(FloatArray scores, FloatArray labels, FloatArray rankGrad, IntArray offsets,
            IntArray shape, FloatArray params, FloatArray scoreGrad) {
        int n = shape.get(DOCS);
        int queries = shape.get(QUERIES);
        int type = shape.get(MODE);
        float alpha = params.get(0);
        for (@Parallel int k = 0; k < scoreGrad.getSize(); k++) {
            if (k < n) {
                int q = DeviceMath.queryOf(offsets, queries, k);
                int to = offsets.get(q + 1);
                float sk = scores.get(k);
                float yk = labels.get(k);
                float gk = rankGrad.get(k);
                float sum = 0f;
                for (int j = offsets.get(q); j < to; j++) {
                    float sb = DeviceMath.sigmoid(alpha * (sk - scores.get(j)));
                    float yj = labels.get(j);
                    float gj = rankGrad.get(j);
                    if (type == 1) {
                        sum += alpha * sb * (1f - sb) * (gj - gk);
                    } else if (type == 2) {
                        sum += -TornadoMath.signum(yk - yj) * alpha * sb * (1f - sb) * (gk + gj);
                    } else if (yk > yj) {
                        sum += -2f * alpha * (1f - sb) * (gk + gj);
                    } else if (yk < yj) {
                        sum += 2f * alpha * sb * (gk + gj);
                    }
                }
                scoreGrad.set(k, sum);
            }
        }
    }
}
