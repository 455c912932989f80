package rankgrad.ltr.internal.pairwise;

import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;

/**
 * The inner loops of the O(m^2) rank computations: for a block of rows k of one query, the sum
 * over the query's documents j of a pair term, evaluated on the fly so that no m x m array ever
 * exists. Two implementations: {@link ScalarPairKernels} (plain Java, the oracle, always
 * present) and {@code VectorPairKernels} (Panama Vector API, one row per lane), chosen once by
 * {@link PairKernelProvider}.
 *
 * <p>Every method reads the query's documents {@code [off, off + m)} of flat batch arrays and
 * writes {@code out[k]} for the rows {@code rowFrom <= k < rowTo}, a sub-range of the query.
 * Float32 only: float64 runs on {@link ScalarPairKernels}' own float64 loops ({@link
 * rankgrad.ltr.rank.Float64Reference}). Notation: sigma(x) = 1 / (1 + e^{-x}), z_kj = s_k -
 * s_j, sb = sigma(alpha z_kj), u_kj = sign(y_k - y_j). Each row sums j = off, off+1, ... in that
 * order.
 *
 * <p>Implementations may differ from the scalar oracle by a few ulps per term (exp, fused
 * multiply-add, where constant factors are applied), never by the order of the sum; they are
 * stateless and thread-safe, and give the same bits in every JIT tier.
 */
public interface PairKernels {

    /** A short name for logs and benchmark labels, e.g. "scalar" or "vector(512-bit)". */
    String name();

    /**
     * The approximate ranks out[k] = pi^-(k) = 1 + sum_{j != k} sigma(alpha (s_j - s_k)) (Qin et al.;
     * Bruch et al. Eq. 6), computed as 1/2 + sum_j sigma(alpha (s_j - s_k)) since the term j = k
     * is sigma(0) = 1/2.
     */
    void approxRanksF32(float[] s, int off, int m, int rowFrom, int rowTo, float alpha, float[] out);


    /**
     * out[k] = d/ds_k of sum_i g_i r_i, where r_i = 1 + sum_{j != i} (1 - h(s_i - s_j)) and the
     * backward replaces dh/dz by the pair derivative d_kj of {@code type} ({@link BackwardType}):
     * <ul>
     *   <li>TYPE1 (d symmetric): sum_j d_kj (g_j - g_k), d_kj = alpha sb (1 - sb);</li>
     *   <li>TYPE2, TYPE3 (d antisymmetric: d_jk = -d_kj): -sum_j d_kj (g_k + g_j).</li>
     * </ul>
     * The term j = k is zero in all three.
     */
    void rankGradientF32(BackwardType type, float[] s, float[] y, float[] g, int off, int m, int rowFrom, int rowTo,
            float alpha, float[] out);


    /**
     * The smoothed-hinge ranks of SHF-SDCG (Wu et al. Eq. 12-15; {@link PairwiseBackend#hingeRanksF32}):
     * out[k] = 1/2 + sum_j T_kj(s_k - s_j), the term j = k being T_kk(0) = G_a(0) = 1/2.
     */
    void hingeRanksF32(float[] s, float[] y, int off, int m, int rowFrom, int rowTo, float alpha, float[] out);


    /**
     * out[k] = sum_j (c_k T'_kj(s_k - s_j) - c_j T'_jk(s_j - s_k)), the score gradient through
     * {@link #hingeRanksF32} for c = dL/drhat; the term j = k is zero.
     */
    void hingeRankGradientF32(float[] s, float[] y, float[] c, int off, int m, int rowFrom, int rowTo, float alpha,
            float[] out);


    /**
     * RankNet / LambdaRank pair terms ({@link PairwiseBackend#logisticPairsF32}): with z = sigma_s
     * (s_k - s_j) and w_kj = |gain_k - gain_j| |disc_k - disc_j| (1 when {@code gain} is null),
     * grad[k] = -sum_{y_j &lt; y_k} w sigma_s sigma(-z) + sum_{y_j &gt; y_k} w sigma_s sigma(z) and
     * cost[k] = sum_{y_j &lt; y_k} w log(1 + e^{-z}).
     */
    void logisticPairsF32(float[] s, float[] y, float[] gain, float[] disc, int off, int m, int rowFrom, int rowTo,
            float sigma, float[] grad, float[] cost);

    /**
     * LightGBM's LambdaRank pair terms ({@link PairwiseBackend#logisticPairsF32(float, float[], float[],
     * float[], float[], rankgrad.ltr.pairwise.PairTruncation, int[], float[], float[])}): for j with
     * y_j != y_k and min(rank_k, rank_j) &lt;= level, w = |gain_k - gain_j| |disc_k - disc_j|, divided
     * by 0.01f + |s_k - s_j| when {@code scoreDistance}, z = sigma_s (s_k - s_j); t = w sigma_s
     * sigma(-z) for y_k &gt; y_j: grad[k] -= t, lambdas[k] += t; t = w sigma_s sigma(z) for y_k &lt; y_j:
     * grad[k] += t.
     */
    void truncatedLambdasF32(float[] s, float[] y, float[] gain, float[] disc, float[] rank, int level,
            boolean scoreDistance, int off, int m, int rowFrom, int rowTo, float sigma, float[] grad, float[] lambdas);

}
