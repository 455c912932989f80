package rankgrad.tornado;

import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * Device kernels of the smoothed-hinge ranks of SHF-SDCG (Wu et al. Eq. 12-15, docs/design.md §3.4)
 * and their exact backward, over a ragged batch: one work item per document row, looping over its
 * query's documents. Buffer layout as in {@link RankKernels}; slope a = params[0].
 */
public final class HingeKernels {
    private HingeKernels() {
    }

    /**
     * rhat_k = 1/2 + sum_j T_kj(s_k - s_j) with T_kj = A_a if y_k &gt; y_j, 1 + A_a(-x) if y_k &lt;
     * y_j, G_a if equal (the j = k term, G_a(0) = 1/2, completes the leading 1).
     */
    public static void hingeRanks(FloatArray scores, FloatArray labels, IntArray offsets, IntArray shape,
            FloatArray params, FloatArray ranks) {
        int n = shape.get(RankKernels.DOCS);
        int queries = shape.get(RankKernels.QUERIES);
        float a = params.get(0);
        for (@Parallel int k = 0; k < ranks.getSize(); k++) {
            if (k < n) {
                int q = DeviceMath.queryOf(offsets, queries, k);
                int to = offsets.get(q + 1);
                float sk = scores.get(k);
                float yk = labels.get(k);
                float sum = 0.5f;
                for (int j = offsets.get(q); j < to; j++) {
                    float x = sk - scores.get(j);
                    float yj = labels.get(j);
                    if (yk == yj) {
                        sum += DeviceMath.sigmoid(-a * x);
                    } else if (yk > yj) {
                        sum += DeviceMath.hingeA(a, x);
                    } else {
                        sum += 1f + DeviceMath.hingeA(a, -x);
                    }
                }
                ranks.set(k, sum);
            }
        }
    }

    /** scoreGrad_k = sum_j (c_k T'_kj(s_k - s_j) - c_j T'_jk(s_j - s_k)) for c = rankGrad. */
    public static void hingeRankGradient(FloatArray scores, FloatArray labels, FloatArray rankGrad, IntArray offsets,
            IntArray shape, FloatArray params, FloatArray scoreGrad) {
        int n = shape.get(RankKernels.DOCS);
        int queries = shape.get(RankKernels.QUERIES);
        float a = params.get(0);
        for (@Parallel int k = 0; k < scoreGrad.getSize(); k++) {
            if (k < n) {
                int q = DeviceMath.queryOf(offsets, queries, k);
                int to = offsets.get(q + 1);
                float sk = scores.get(k);
                float yk = labels.get(k);
                float ck = rankGrad.get(k);
                float sum = 0f;
                for (int j = offsets.get(q); j < to; j++) {
                    float x = sk - scores.get(j);
                    float yj = labels.get(j);
                    sum += ck * DeviceMath.hingeSlope(a, yk, yj, x) - rankGrad.get(j) * DeviceMath.hingeSlope(a, yj, yk, -x);
                }
                scoreGrad.set(k, sum);
            }
        }
    }
}
