package rankgrad.ltr.pairwise;

import rankgrad.ltr.Ranking;

/**
 * The O(m^2) pairwise work of every rank loss for a ragged batch (docs/design.md §1), query by
 * query over exactly m_q^2 pairs, with no mask, no padding and no m x m array. A second backend
 * (TornadoVM, a user's) implements the five float32 methods; exact ranks (a sort) have a default
 * implementation. Float64 (gradient checks) never reaches a backend: it runs on the scalar
 * reference, {@link rankgrad.ltr.rank.Float64Reference}. A pair term added later comes as a float32 method whose
 * default runs it on {@link PairwiseBackends#cpu()}, so that other backends need not change until
 * a device kernel for it pays.
 *
 * <p>Arrays are flat over the batch: query q owns {@code [offsets[q], offsets[q+1])} of every
 * per-document array; pairs never cross queries. Within a query, for documents k and j:
 * z_kj = s_k - s_j, sigma(x) = 1 / (1 + e^{-x}), u_kj = sign(y_k - y_j), and every output is
 * overwritten, never accumulated. Each output element k is a sum over the query's documents j.
 * <ul>
 *   <li>{@link #approxRanksF32}: pi^-(k) = 1 + sum_{j != k} sigma(alpha (s_j - s_k)) (Qin et al.;
 *       Bruch et al. Eq. 6; also Wu et al.'s SDCG ranks with G_a(x) = sigma(-a x)).</li>
 *   <li>{@link #rankGradientF32}: given g = dL/dr, scoreGrad_k = dL/ds_k = sum_i g_i dr_i/ds_k for
 *       r_i = 1 + sum_{j != i} (1 - h(z_ij)), with the pair derivative d_kj of {@link BackwardType}
 *       in place of dh/dz (Yu et al. Eq. 11, 20, 21): type 1: sum_j d_kj (g_j - g_k); types 2
 *       and 3: -sum_j d_kj (g_k + g_j). Type 1 with the same alpha is the exact gradient of
 *       {@link #approxRanksF32}.</li>
 *   <li>{@link #hingeRanksF32}: the smoothed-hinge ranks of SHF-SDCG (Wu et al. Eq. 12-15, sign
 *       restored as in docs/design.md §3.4): rhat_k = 1 + sum_{j != k} T_kj(z_kj) with
 *       G_a(x) = 1 / (1 + e^{a x}), A_a(x) = G_a(x) for x &gt;= 0 and 1/2 - (a/4) x for x &lt; 0,
 *       and T_kj = A_a if y_k &gt; y_j, B_a(x) = 1 + A_a(-x) if y_k &lt; y_j, G_a if y_k = y_j.</li>
 *   <li>{@link #hingeRankGradientF32}: given c = dL/drhat, scoreGrad_k = sum_j (c_k T'_kj(z_kj) -
 *       c_j T'_jk(z_jk)), the exact gradient through {@link #hingeRanksF32}.</li>
 *   <li>{@link #logisticPairsF32}: the pair terms of RankNet and LambdaRank (Burges et al.; Yue
 *       and Burges Eq. 2) with weights w_kj = |gain_k - gain_j| |disc_k - disc_j| (LambdaRank's
 *       |delta NDCG| up to 1/IDCG, which the caller folds into disc), or w_kj = 1 when {@code
 *       gains} is null (RankNet): scoreGrad_k = -sum_{j: y_j != y_k} u_kj w_kj sigma_s /
 *       (1 + e^{u_kj sigma_s z_kj}) and cost_k = sum_{j: y_k &gt; y_j} w_kj log(1 + e^{-sigma_s
 *       z_kj}); scoreGrad is the gradient of sum_k cost_k with the weights held fixed.</li>
 *   <li>{@link #logisticPairsF32(float, float[], float[], float[], float[], PairTruncation, int[], float[],
 *       float[])}: LambdaRank's pair terms as LightGBM selects and normalizes them ({@link
 *       PairTruncation}); a default on {@link PairwiseBackends#cpu()}, which a device backend may
 *       override.</li>
 * </ul>
 *
 * <p>Contract (checked for every implementation by the testkit's backend contract suite): results
 * equal {@link PairwiseBackends#reference() the scalar reference} within float32 rounding on any
 * ragged batch with ties and signed zeros (-0.0 and +0.0 are equal scores); exact ranks are a
 * permutation of 1..m; LambdaRank/RankNet gradients of a query sum to zero; no NaN for finite
 * scores however far apart; results do not depend on the number of threads; methods are
 * thread-safe. Scores are finite (callers check, naming the query).
 *
 * <p>Implementations: the CPU backend ({@link PairwiseBackends#cpu()}, always present, SIMD with a
 * scalar fallback); others register through {@link java.util.ServiceLoader} and are selected by name with {@link
 * PairwiseBackends}.
 */
public interface PairwiseBackend {

    /** The name used to select this backend ({@code -Drankgrad.pairwise=<name>}), e.g. "cpu". */
    String name();

    /**
     * Whether this backend can run here (runtime and a device present). The CPU backend always
     * can; {@link PairwiseBackends} falls back to it when a selected backend cannot.
     */
    default boolean isAvailable() {
        return true;
    }

    /** Approximate ranks pi^- with sigmoid steepness {@code alpha > 0}, into {@code ranks}. */
    void approxRanksF32(float[] scores, int[] offsets, float alpha, float[] ranks);

    /** Score gradient {@code scoreGrad} from the rank gradient {@code rankGrad}, pair derivative of {@code type}. */
    void rankGradientF32(BackwardType type, float alpha, float[] scores, float[] labels, int[] offsets,
            float[] rankGrad, float[] scoreGrad);

    /** The smoothed-hinge ranks rhat of SHF-SDCG with slope {@code alpha > 0}, into {@code ranks}. */
    void hingeRanksF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] ranks);

    /** Score gradient {@code scoreGrad} from {@code rankGrad} = dL/drhat through {@link #hingeRanksF32}. */
    void hingeRankGradientF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] rankGrad,
            float[] scoreGrad);

    /**
     * RankNet ({@code gains == null}) or LambdaRank pair terms per document: the score gradient
     * into {@code scoreGrad} and the weighted logistic cost of the pairs a document leads into
     * {@code cost}.
     *
     * @param gains per-document gains 2^y - 1, or null for unit pair weights (RankNet)
     * @param discounts per-document discounts of the current positions (LambdaRank; ignored when
     *     {@code gains} is null)
     */
    void logisticPairsF32(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
            int[] offsets, float[] scoreGrad, float[] cost);

    /**
     * LambdaRank pair terms as LightGBM computes them (docs/design.md §3.15; {@link PairTruncation}):
     * for the pairs of different labels with min(r_k, r_j) &lt;= level, the pair lambda
     * lambda_kj = sigma_s w_kj sigma(-sigma_s (s_k - s_j)) for y_k &gt; y_j, w_kj = |gain_k - gain_j|
     * |disc_k - disc_j| (divided by 0.01 + |s_k - s_j| with {@code scoreDistance});
     * scoreGrad_k = -sum_{y_j &lt; y_k} lambda_kj + sum_{y_j &gt; y_k} lambda_jk, and {@code pairLambdas}_k =
     * sum_{y_j &lt; y_k} lambda_kj, the lambdas of the pairs document k leads, from which the caller
     * gets LightGBM's per-query sum for its normalization (line 262: sum_lambdas = 2 sum_k
     * pairLambdas_k). The default runs on {@link PairwiseBackends#cpu()}.
     *
     * @param gains per-document gains (LightGBM's label_gain, 2^y - 1 by default)
     * @param discounts per-document discounts D(r) / maxDCG@level at the positions of {@code truncation}
     */
    default void logisticPairsF32(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
            PairTruncation truncation, int[] offsets, float[] scoreGrad, float[] pairLambdas) {
        PairwiseBackends.cpu().logisticPairsF32(sigma, scores, labels, gains, discounts, truncation, offsets,
                scoreGrad, pairLambdas);
    }

    /**
     * Exact ranks by score, ties by smaller tie key first ({@code tieKeys} per query a permutation
     * of 0..m-1): r_i = 1 + #{j : s_j &gt; s_i, or s_j == s_i and key_j &lt; key_i}, the twin-sigmoid
     * forward ranks (Yu et al. Eq. 12 with alpha_f -&gt; infinity). A sort, O(m log m) per query;
     * by default {@link Ranking#exactRanks(float[], int[], int, int, int[], float[])} over the batch.
     */
    default void exactRanksF32(float[] scores, int[] offsets, int[] tieKeys, float[] ranks) {
        Ranking.exactRanks(scores, offsets, 0, offsets.length - 1, tieKeys, ranks);
    }
}
