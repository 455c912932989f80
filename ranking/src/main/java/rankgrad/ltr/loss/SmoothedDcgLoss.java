package rankgrad.ltr.loss;

import java.util.Arrays;
import java.util.Objects;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.metric.ExactMetrics;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.rank.Inputs;
import rankgrad.ltr.rank.RankMode;
import rankgrad.ltr.rank.TieBreak;

/**
 * SDCG@k and SHF-SDCG@k (Wu et al. 2009, Eq. 5-8 and 12-17; DESIGN section 3.4), as losses: minus
 * the smoothed DCG divided by the query's exact IDCG@k, averaged over the batch's queries.
 *
 * <pre>
 *   G_a(x) = 1 / (1 + e^{a x})                                          (Eq. 5)
 *   rhat_i = 1 + sum_{j != i} T_ij(o_i - o_j)                           (Eq. 6)
 *   SDCG@k = sum_i (2^{y_i} - 1) / log2(1 + rhat_i) * W(rhat_i),   W(r) = G_b(r - k)   (Eq. 7-8)
 *   L_q    = -SDCG@k / IDCG@k
 * </pre>
 *
 * <p>SDCG uses T_ij = G_a for every pair. SHF-SDCG replaces it by the smoothed hinges (Eq. 12-15,
 * with the sign the extracted text lost restored, DESIGN section 3.4):
 * <pre>
 *   A_a(x) = G_a(x) for x &gt;= 0,  0.5 - (a/4) x for x &lt; 0;     B_a(x) = 1 + A_a(-x)
 *   T_ij = A_a if y_i &gt; y_j,  B_a if y_i &lt; y_j,  G_a if y_i = y_j
 * </pre>
 * A_a is C1 at 0 (value 1/2, slope -a/4), so a wrongly ordered pair keeps a constant gradient of
 * size a/4 on both ranks, pushing both documents the right way (Eq. 16).
 *
 * <p>Annealed weight (Eq. 17, optional): W(r) = G_b(r - s_t), where s_t is the largest rhat among
 * the min(k, m) most relevant documents of the query (label ties broken by a seeded random
 * permutation), held constant: no gradient flows through s_t.
 *
 * <p>Defaults a = 1 and b = 1 (the paper gives no values). The ranks and the chain rule through
 * them are the pairwise backend's two O(m^2) passes: for SDCG the approximate ranks with alpha = a
 * ({@link RankMode.Approximate}, since G_a(x) = sigma(-a x)), for SHF-SDCG the smoothed-hinge ranks
 * ({@link RankMode.SmoothedHinge}); float32 scores are worked in float32. The O(m) rest (discounts,
 * weights, the annealed s_t, dL/drhat) runs per query in float64 on the CPU; the dividing IDCG@k is
 * {@link ExactMetrics#idealDcg}, the one evaluation uses, and D(r) is {@link
 * ExactMetrics#discount(double)}.
 *
 * <pre>{@code
 * RankingLoss shf = SmoothedDcgLoss.shfSdcg(10).withAlpha(2).annealed(3L);
 * Var loss = shf.loss(scores, batch);
 * }</pre>
 *
 * <p>Thread-safety: safe to share; the annealed variant takes a call number per {@link #loss} call.
 */
public final class SmoothedDcgLoss implements RankingLoss {
    private final int k;
    private final double alpha;
    private final double beta;
    private final boolean hinge;
    private final boolean annealed;
    private final TieBreak tieBreak;
    private final PairwiseBackend backend;

    private SmoothedDcgLoss(int k, double alpha, double beta, boolean hinge, boolean annealed, TieBreak tieBreak,
            PairwiseBackend backend) {
        this.k = Inputs.requireCutoff("SDCG", k);
        this.alpha = Inputs.requirePositiveFinite("alpha (rank smoothing)", alpha);
        this.beta = Inputs.requirePositiveFinite("beta (cutoff smoothing)", beta);
        this.hinge = hinge;
        this.annealed = annealed;
        this.tieBreak = Objects.requireNonNull(tieBreak, "tieBreak");
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** SDCG@k with approximate ranks for every pair (Wu Eq. 8), a = b = 1. */
    public static SmoothedDcgLoss sdcg(int k) {
        return new SmoothedDcgLoss(k, 1.0, 1.0, false, false, TieBreak.seeded(0L), PairwiseBackends.selected());
    }

    /** SHF-SDCG@k with smoothed-hinge ranks (Wu Eq. 12-15), a = b = 1. */
    public static SmoothedDcgLoss shfSdcg(int k) {
        return new SmoothedDcgLoss(k, 1.0, 1.0, true, false, TieBreak.seeded(0L), PairwiseBackends.selected());
    }

    /** The same loss with rank smoothing a (slope of G_a and of the hinges). */
    public SmoothedDcgLoss withAlpha(double a) {
        return new SmoothedDcgLoss(k, a, beta, hinge, annealed, fresh(), backend);
    }

    /** The same loss with cutoff smoothing b (the steepness of W). */
    public SmoothedDcgLoss withBeta(double b) {
        return new SmoothedDcgLoss(k, alpha, b, hinge, annealed, fresh(), backend);
    }

    /** The same loss with the annealed weight of Eq. 17, label ties for s_t broken from {@code tieSeed}. */
    public SmoothedDcgLoss annealed(long tieSeed) {
        return new SmoothedDcgLoss(k, alpha, beta, hinge, true, TieBreak.seeded(tieSeed), backend);
    }

    /** The same loss on another pairwise backend (its tie-breaker starts again at call 0). */
    @Override
    public SmoothedDcgLoss withBackend(PairwiseBackend other) {
        return new SmoothedDcgLoss(k, alpha, beta, hinge, annealed, fresh(), other);
    }

    public int cutoff() {
        return k;
    }

    public double alpha() {
        return alpha;
    }

    public double beta() {
        return beta;
    }

    public boolean isHinge() {
        return hinge;
    }

    public boolean isAnnealed() {
        return annealed;
    }

    /** The same loss drawing its tie-breaks for training step {@code step} (see {@link RankingLoss#atStep}). */
    @Override
    public SmoothedDcgLoss atStep(long step) {
        return atStep(step, 0);
    }

    /** The same loss for a shard of step {@code step}'s batch (see {@link RankingLoss#atStep(long, int)}). */
    @Override
    public SmoothedDcgLoss atStep(long step, int firstQuery) {
        return new SmoothedDcgLoss(k, alpha, beta, hinge, annealed, TieBreak.seeded(tieBreak.seed(), step, firstQuery),
                backend);
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        // Only the annealed variant draws random numbers, so only it advances the call counter.
        long call = annealed ? tieBreak.nextCall() : 0L;
        RankMode mode = hinge ? new RankMode.SmoothedHinge(alpha) : new RankMode.Approximate(alpha);
        return Var.apply(new MetricLossOp(name(), batch, backend, mode,
                (b, q, rhat, order, grad) -> smoothedDcg(b, q, rhat, call, grad)), scores);
    }

    @Override
    public String name() {
        return (hinge ? "shf-sdcg" : "sdcg") + (annealed ? "-annealed" : "") + "@" + k;
    }

    /** SDCG@k / IDCG@k of query q at the ranks rhat, d(SDCG@k / IDCG@k) / d rhat_i into grad[i]. */
    private double smoothedDcg(QueryBatch batch, int q, double[] rhat, long call, double[] grad) {
        float[] y = batch.labels();
        int from = batch.start(q);
        int m = batch.size(q);
        Arrays.fill(grad, 0, m, 0.0);
        double idcg = ExactMetrics.idealDcg(y, from, m, k);
        if (idcg == 0) {
            return 0;
        }
        double center = annealed
                ? annealedCenter(rhat, y, from, m, TieBreak.keys(tieBreak.seed(), call, tieBreak.firstQuery() + q, m))
                : k;
        double sdcg = 0;
        for (int i = 0; i < m; i++) {
            double g = ExactMetrics.gain(y[from + i]);
            if (g == 0) {
                continue;
            }
            double discount = ExactMetrics.discount(rhat[i]);
            double w = sigmoidG(beta, rhat[i] - center);
            sdcg += g * discount * w;
            grad[i] = g * (ExactMetrics.discountSlope(rhat[i]) * w - discount * beta * w * (1 - w)) / idcg;
        }
        return sdcg / idcg;
    }

    /** G_b(x) = 1 / (1 + e^{b x}); e^{b x} overflowing to infinity gives exactly 0, never NaN. */
    private static double sigmoidG(double b, double x) {
        return 1.0 / (1.0 + Math.exp(b * x));
    }

    /** s_t of Eq. 17: the largest rhat among the min(k, m) most relevant documents (label ties by {@code tieKeys}). */
    private double annealedCenter(double[] rhat, float[] y, int from, int m, int[] tieKeys) {
        int[] byLabel = Ranking.order(y, from, m, tieKeys);
        double center = Double.NEGATIVE_INFINITY;
        for (int r = 0; r < Math.min(k, m); r++) {
            center = Math.max(center, rhat[byLabel[r]]);
        }
        return center;
    }

    private TieBreak fresh() {
        return TieBreak.seeded(tieBreak.seed());
    }
}
