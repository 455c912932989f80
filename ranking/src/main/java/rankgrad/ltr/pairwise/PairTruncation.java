package rankgrad.ltr.pairwise;

/**
 * The pair selection and score-distance normalization of LightGBM's LambdaRank (LightGBM 4.x,
 * {@code src/objective/rank_objective.hpp}, {@code LambdarankNDCG::GetGradientsForOneQuery}, lines
 * 208-264 at commit bae0b7b, 4.6.0.99; docs/design.md §3.15), for {@link PairwiseBackend#logisticPairsF32(float,
 * float[], float[], float[], float[], PairTruncation, int[], float[], float[])}:
 * <ul>
 *   <li>a pair of documents counts only if at least one of them is within the top {@code level}
 *       positions of the current ranking (lines 208 and 212: the outer loop stops at
 *       {@code truncation_level_}, the inner one runs to the end), that is min(r_k, r_j) &lt;=
 *       level with 1-based positions r;</li>
 *   <li>with {@code scoreDistance}, its weight is divided by 0.01 + |s_k - s_j| (lines 248-250,
 *       {@code lambdarank_norm}; the constant is the float 0.01f, as LightGBM writes it).</li>
 * </ul>
 *
 * @param ranks the current 1-based positions of the documents, flat over the batch like the
 *     scores (e.g. from {@link PairwiseBackend#exactRanksF32})
 * @param level the truncation level T &gt;= 1 (LightGBM's {@code lambdarank_truncation_level})
 * @param scoreDistance whether to divide each pair's weight by 0.01 + |s_k - s_j|
 */
public record PairTruncation(float[] ranks, int level, boolean scoreDistance) {
    /** LightGBM's constant 0.01f of line 249, as the float64 LightGBM adds it to |delta score|. */
    public static final double SCORE_DISTANCE_OFFSET = 0.01f;

    public PairTruncation {
        java.util.Objects.requireNonNull(ranks, "ranks");
        if (level < 1) {
            throw new IllegalArgumentException("truncation level must be >= 1, got " + level);
        }
    }
}
