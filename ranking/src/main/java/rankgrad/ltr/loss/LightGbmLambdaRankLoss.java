package rankgrad.ltr.loss;

import java.util.Objects;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.PairTruncation;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.rank.Inputs;

/**
 * LambdaRank as LightGBM 4.x computes it ({@code objective=lambdarank}; {@code
 * src/objective/rank_objective.hpp}, {@code LambdarankNDCG}, lines 161-272 at commit bae0b7b, 4.6.0.99; docs/design.md
 * §3.15), so that a network trained here receives the gradients a LightGBM booster would.
 *
 * <p>For one query, with positions r by score (a stable sort: ties keep input order, line 196), gains
 * g = 2^y - 1 (label_gain, line 231), D(r) = 1 / log2(1 + r) and maxDCG@T (line 168), for every pair
 * with y_i &gt; y_j and min(r_i, r_j) &lt;= T (lines 208-218):
 * <pre>
 *   dNDCG_ij  = (g_i - g_j) |D(r_i) - D(r_j)| / maxDCG@T                       (lines 242-246)
 *   dNDCG_ij /= 0.01 + |s_i - s_j|      with lambdarank_norm, unless all scores are equal (248-250)
 *   lambda_ij = sigma_s dNDCG_ij / (1 + e^{sigma_s (s_i - s_j)})                        (252-255)
 *   dC/ds_i  -= lambda_ij,  dC/ds_j += lambda_ij,  S += 2 lambda_ij                     (257-262)
 *   with lambdarank_norm and S &gt; 0: every dC/ds scaled by log2(1 + S) / S            (265-271)
 * </pre>
 * and the gradient of the batch is the mean of the queries' (rankgrad's convention; LightGBM sums).
 * Defaults are LightGBM's: T = 30 ({@code lambdarank_truncation_level}), sigma_s = 1 ({@code
 * sigmoid}), normalization on ({@code lambdarank_norm}). Unlike {@link LambdaRankLoss}'s delta-NDCG@k,
 * the discount is not cut at T: a pair with one document above T and one below keeps |D(r_i) - D(r_j)|.
 *
 * <p>Conventions against LightGBM: LightGBM reads the sigmoid from a table of 2^20 bins over [-25 /
 * sigma_s, 25 / sigma_s] (lines 274-300; an error up to about 1.2e-5 per pair) and accumulates the
 * lambdas in float32; here the sigmoid is exact and float64 scores are worked in float64, so the
 * two agree to rounding where the table is exact (the reference test uses such scores). The lambdas
 * are not the gradient of a function, so the reported value is 1 - NDCG@T of the current ranking
 * (LightGBM's evaluation metric), not a quantity whose derivative is the gradient.
 *
 * <p>The pair terms run on the pairwise backend ({@link PairwiseBackend#logisticPairsF32(float,
 * float[], float[], float[], float[], PairTruncation, int[], float[], float[])}: the CPU's SIMD kernels
 * or a device); float32 scores are worked in float32, float64 in float64 on the scalar reference.
 *
 * <pre>{@code
 * RankingLoss lgbm = LightGbmLambdaRankLoss.create().withTruncation(10);
 * Var loss = lgbm.loss(scores, batch);
 * loss.backward();
 * }</pre>
 *
 * <p>Thread-safety: immutable.
 */
public final class LightGbmLambdaRankLoss implements RankingLoss {
    /** LightGBM's default {@code lambdarank_truncation_level}. */
    public static final int DEFAULT_TRUNCATION = 30;

    private final int truncation;
    private final double sigma;
    private final boolean normalize;
    private final PairwiseBackend backend;

    private LightGbmLambdaRankLoss(int truncation, double sigma, boolean normalize, PairwiseBackend backend) {
        this.truncation = Inputs.requireCutoff("LightGBM LambdaRank truncation", truncation);
        this.sigma = Inputs.requirePositiveFinite("sigmoid", sigma);
        this.normalize = normalize;
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** LightGBM's defaults: truncation level 30, sigmoid 1, lambdarank_norm on; the selected backend. */
    public static LightGbmLambdaRankLoss create() {
        return new LightGbmLambdaRankLoss(DEFAULT_TRUNCATION, 1.0, true, PairwiseBackends.selected());
    }

    /** The same loss with truncation level T ({@code lambdarank_truncation_level}). */
    public LightGbmLambdaRankLoss withTruncation(int level) {
        return new LightGbmLambdaRankLoss(level, sigma, normalize, backend);
    }

    /** The same loss with LightGBM's {@code sigmoid} parameter sigma_s. */
    public LightGbmLambdaRankLoss withSigma(double sigmaS) {
        return new LightGbmLambdaRankLoss(truncation, sigmaS, normalize, backend);
    }

    /** The same loss with {@code lambdarank_norm} set to {@code on}. */
    public LightGbmLambdaRankLoss withNormalization(boolean on) {
        return new LightGbmLambdaRankLoss(truncation, sigma, on, backend);
    }

    @Override
    public LightGbmLambdaRankLoss withBackend(PairwiseBackend other) {
        return new LightGbmLambdaRankLoss(truncation, sigma, normalize, other);
    }

    public int truncation() {
        return truncation;
    }

    public double sigma() {
        return sigma;
    }

    public boolean normalize() {
        return normalize;
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new LightGbmLambdaOp(name(), batch, backend, sigma, truncation, normalize), scores);
    }

    @Override
    public String name() {
        return "lambdarank-lgbm@" + truncation;
    }
}
