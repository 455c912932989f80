package rankgrad.ltr.pairwise;

/**
 * The pairwise work of the rank operators for a ragged batch (DESIGN section 1): forward ranks
 * and backward gradient sums, query by query, over exactly m_q^2 pairs per query, with no mask,
 * no padding and no m x m array.
 *
 * <p>Arrays are flat over the batch: query q owns {@code [offsets[q], offsets[q+1])} of {@code
 * scores}, {@code labels}, {@code tieKeys}, {@code rankGrad} and the outputs. Within a query, with
 * z_ij = s_i - s_j and sigma(x) = 1 / (1 + e^{-x}):
 * <ul>
 *   <li>{@code exactRanks}: the twin-sigmoid forward ranks (Yu et al. Eq. 12 with alpha_f -> inf
 *       and tie-breaking), r_i = 1 + #{j : s_j &gt; s_i, or s_j == s_i and key_j &lt; key_i}. Scores
 *       compare with IEEE {@code ==}, so -0.0 and +0.0 tie. The result is a permutation of 1..m.</li>
 *   <li>{@code sigmoidRanks}: the approximate ranks pi^-(i) = 1 + sum_{j != i} sigma(alpha (s_j -
 *       s_i)) (Qin et al.; Bruch et al. Eq. 6).</li>
 *   <li>{@code rankGradient}: given g = dL/dr, the score gradient dL/ds_k = sum_i g_i dr_i/ds_k,
 *       where r_i = 1 + sum_{j != i} (1 - h(z_ij)) and the backward uses the pair derivative of
 *       {@link BackwardType} with alpha in place of dh/dz (Yu Eq. 11, 20, 21): for type 1,
 *       sum_j d_kj (g_j - g_k); for types 2 and 3, -sum_j d_kj (g_k + g_j). With type 1 and the
 *       same alpha this is the exact gradient of {@code sigmoidRanks}.</li>
 * </ul>
 *
 * <p>Implementations: {@link CpuPairwiseBackend} (always present, SIMD with a scalar fallback);
 * others (TornadoVM) register through {@link java.util.ServiceLoader} and are selected by name
 * with {@link PairwiseBackends}. Contract: scores are finite (callers check, naming the query);
 * results must not depend on the number of threads; methods are thread-safe.
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

    /** Exact ranks by score, ties by smaller tie key first; {@code tieKeys} per query a permutation of 0..m-1. */
    void exactRanksF32(float[] scores, int[] offsets, int[] tieKeys, float[] ranks);

    /** {@link #exactRanksF32} for float64 scores. */
    void exactRanksF64(double[] scores, int[] offsets, int[] tieKeys, double[] ranks);

    /** Approximate ranks pi^- with sigmoid steepness {@code alpha > 0}. */
    void sigmoidRanksF32(float[] scores, int[] offsets, float alpha, float[] ranks);

    /** {@link #sigmoidRanksF32} in float64. */
    void sigmoidRanksF64(double[] scores, int[] offsets, double alpha, double[] ranks);

    /** Score gradient {@code scoreGrad} from the rank gradient {@code rankGrad} (overwritten, not accumulated). */
    void rankGradientF32(BackwardType type, float alpha, float[] scores, float[] labels, int[] offsets,
            float[] rankGrad, float[] scoreGrad);

    /** {@link #rankGradientF32} in float64. */
    void rankGradientF64(BackwardType type, double alpha, double[] scores, float[] labels, int[] offsets,
            double[] rankGrad, double[] scoreGrad);
}
