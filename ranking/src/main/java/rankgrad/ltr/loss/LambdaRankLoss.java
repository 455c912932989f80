package rankgrad.ltr.loss;

import java.util.Objects;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.rank.Inputs;
import rankgrad.ltr.rank.TieBreak;

/**
 * LambdaRank for NDCG (Burges et al. 2006; Yue and Burges 2007, Eq. 2; DESIGN section 3.5).
 *
 * <p>For a pair with y_i &gt; y_j at the current exact positions r_i, r_j:
 * <pre>
 *   lambda_ij = sigma_s / (1 + e^{sigma_s (s_i - s_j)}) * |dNDCG_ij|,
 *   |dNDCG_ij| = |(2^{y_i} - 2^{y_j}) (D_k(r_i) - D_k(r_j))| / IDCG@k,
 *   lambda_i  = sum_{j less relevant} lambda_ij - sum_{j more relevant} lambda_ji   (Eq. 2)
 * </pre>
 * with D_k(r) = 1 / log2(1 + r) for r &lt;= k and 0 below the truncation k (no truncation: k = m), so
 * |dNDCG_ij| is the exact change of NDCG@k when i and j swap positions. The gradient this node
 * returns is dC/ds_i = -lambda_i / Q for a batch of Q queries; the lambdas of a query sum to zero.
 *
 * <p>The reported value is the |dNDCG|-weighted RankNet cost of the current ranking,
 * C_q = sum_{y_i &gt; y_j} |dNDCG_ij| log(1 + e^{-sigma_s (s_i - s_j)}), averaged over queries: with the
 * positions held fixed its derivative is exactly -lambda (Yue and Burges, Sec. 3.1: "for a given
 * sorted order ... a weighted version of the RankNet objective"). It is not 1 - NDCG.
 *
 * <p>Positions are the exact ranks of the pairwise backend with a random tie-break per query per
 * call from {@link TieBreak} (seed, call number of this instance, query index: the twin-sigmoid
 * convention of DESIGN section 3.2), so equal scores do not favour input order and results do not
 * depend on threads. The pair terms are those of {@link PairwiseBackend#logisticPairsF32} with the
 * gains 2^y - 1 and the discounts D_k(r) / IDCG@k, computed per document in O(m^2) and
 * back-propagated once (Burges Sec. 5), with O(m) extra memory; float32 scores are worked in
 * float32.
 *
 * <pre>{@code
 * RankingLoss lambdaRank = LambdaRankLoss.create(42L).withTruncation(10);
 * Var loss = lambdaRank.loss(scores, batch);
 * loss.backward();
 * }</pre>
 *
 * <p>Thread-safety: safe to share; each {@link #loss} call takes the next call number atomically.
 */
public final class LambdaRankLoss implements RankingLoss {
    private final int truncation;
    private final double sigma;
    private final TieBreak tieBreak;
    private final PairwiseBackend backend;

    private LambdaRankLoss(int truncation, double sigma, TieBreak tieBreak, PairwiseBackend backend) {
        if (truncation < 0) {
            throw new IllegalArgumentException("truncation k must be >= 1 (or 0 for none), got " + truncation);
        }
        this.truncation = truncation;
        this.sigma = Inputs.requirePositiveFinite("sigma_s", sigma);
        this.tieBreak = Objects.requireNonNull(tieBreak, "tieBreak");
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** LambdaRank for NDCG over all documents, sigma_s = 1, ties broken from {@code seed}. */
    public static LambdaRankLoss create(long seed) {
        return new LambdaRankLoss(0, 1.0, TieBreak.seeded(seed), PairwiseBackends.selected());
    }

    /** The same loss for NDCG@k (its tie-breaker starts again at call 0). */
    public LambdaRankLoss withTruncation(int k) {
        return new LambdaRankLoss(Inputs.requireCutoff("LambdaRank truncation", k), sigma, fresh(), backend);
    }

    /** The same loss with the logistic's steepness sigma_s (its tie-breaker starts again at call 0). */
    public LambdaRankLoss withSigma(double sigmaS) {
        return new LambdaRankLoss(truncation, sigmaS, fresh(), backend);
    }

    /** The same loss on another pairwise backend (its tie-breaker starts again at call 0). */
    @Override
    public LambdaRankLoss withBackend(PairwiseBackend other) {
        return new LambdaRankLoss(truncation, sigma, fresh(), other);
    }

    /** The truncation k, or 0 for none. */
    public int truncation() {
        return truncation;
    }

    public double sigma() {
        return sigma;
    }

    /** The same loss drawing its tie-breaks for training step {@code step} (see {@link RankingLoss#atStep}). */
    @Override
    public LambdaRankLoss atStep(long step) {
        return atStep(step, 0);
    }

    /** The same loss for a shard of step {@code step}'s batch (see {@link RankingLoss#atStep(long, int)}). */
    @Override
    public LambdaRankLoss atStep(long step, int firstQuery) {
        return new LambdaRankLoss(truncation, sigma, TieBreak.seeded(tieBreak.seed(), step, firstQuery), backend);
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        int[] keys = TieBreak.batchKeys(tieBreak.seed(), tieBreak.nextCall(), tieBreak.firstQuery(), batch.offsets());
        return Var.apply(new LogisticPairsOp(name(), batch, backend, sigma,
                new LogisticPairsOp.DeltaNdcg(truncation, keys)), scores);
    }

    @Override
    public String name() {
        return truncation == 0 ? "lambdarank" : "lambdarank@" + truncation;
    }

    private TieBreak fresh() {
        return TieBreak.seeded(tieBreak.seed());
    }
}
