package rankgrad.ltr.loss;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.RankingLoss;
import rankgrad.ltr.metric.ExactMetrics;

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
 * <p>Defaults a = 1 and b = 1 (the paper gives no values). Cost per query: two O(m^2) passes (the
 * ranks, then the chain rule through them) and O(m) extra memory; the dividing IDCG@k is
 * {@link ExactMetrics#idealDcg}, the one evaluation uses.
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
    private final long seed;
    private final AtomicLong calls;

    private SmoothedDcgLoss(int k, double alpha, double beta, boolean hinge, boolean annealed, long seed, long firstCall) {
        this.calls = new AtomicLong(firstCall);
        LossMath.requireCutoff(k);
        LossMath.requirePositiveFinite("alpha (rank smoothing)", alpha);
        LossMath.requirePositiveFinite("beta (cutoff smoothing)", beta);
        this.k = k;
        this.alpha = alpha;
        this.beta = beta;
        this.hinge = hinge;
        this.annealed = annealed;
        this.seed = seed;
    }

    /** SDCG@k with sigmoid ranks for every pair (Wu Eq. 8), a = b = 1. */
    public static SmoothedDcgLoss sdcg(int k) {
        return new SmoothedDcgLoss(k, 1.0, 1.0, false, false, 0L, 0L);
    }

    /** SHF-SDCG@k with smoothed-hinge ranks (Wu Eq. 12-15), a = b = 1. */
    public static SmoothedDcgLoss shfSdcg(int k) {
        return new SmoothedDcgLoss(k, 1.0, 1.0, true, false, 0L, 0L);
    }

    /** The same loss with rank smoothing a (slope of G_a and of the hinges). */
    public SmoothedDcgLoss withAlpha(double a) {
        return new SmoothedDcgLoss(k, a, beta, hinge, annealed, seed, 0L);
    }

    /** The same loss with cutoff smoothing b (the steepness of W). */
    public SmoothedDcgLoss withBeta(double b) {
        return new SmoothedDcgLoss(k, alpha, b, hinge, annealed, seed, 0L);
    }

    /** The same loss with the annealed weight of Eq. 17, label ties for s_t broken from {@code tieSeed}. */
    public SmoothedDcgLoss annealed(long tieSeed) {
        return new SmoothedDcgLoss(k, alpha, beta, hinge, true, tieSeed, 0L);
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
        return new SmoothedDcgLoss(k, alpha, beta, hinge, annealed, seed, step);
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new QueryLossOp(name(), batch, this::query, seed, nextCall()), scores);
    }

    long seed() {
        return seed;
    }

    /** The call number of the next evaluation; only the annealed variant draws random numbers. */
    long nextCall() {
        return annealed ? calls.getAndIncrement() : 0L;
    }

    @Override
    public String name() {
        return (hinge ? "shf-sdcg" : "sdcg") + (annealed ? "-annealed" : "") + "@" + k;
    }

    /** The per-query kernel, also used by {@link RegShfSdcgLoss}. */
    double query(double[] s, float[] y, int from, int m, SplittableRandom random, double weight, double[] grad) {
        double[] rhat = new double[m];
        Arrays.fill(rhat, 1.0);
        for (int i = 0; i < m; i++) {
            for (int j = i + 1; j < m; j++) {
                double x = s[from + i] - s[from + j];
                rhat[i] += term(y[from + i], y[from + j], x);
                rhat[j] += term(y[from + j], y[from + i], -x);
            }
        }
        double center = annealed ? annealedCenter(rhat, y, from, m, random) : k;
        // c[i] = d L_q / d rhat_i, with L_q = -SDCG / IDCG.
        double invIdcg = 1.0 / ExactMetrics.idealDcg(y, from, m, k);
        double[] c = new double[m];
        double sdcg = 0;
        for (int i = 0; i < m; i++) {
            double g = ExactMetrics.gain(y[from + i]);
            if (g == 0) {
                continue;
            }
            double ln = Math.log1p(rhat[i]);
            double discount = LossMath.LN2 / ln;
            double dDiscount = -LossMath.LN2 / ((1 + rhat[i]) * ln * ln);
            double w = sigmoidG(beta, rhat[i] - center);
            double dW = -beta * w * (1 - w);
            sdcg += g * discount * w;
            c[i] = -invIdcg * g * (dDiscount * w + discount * dW);
        }
        for (int i = 0; i < m; i++) {
            for (int j = i + 1; j < m; j++) {
                if (c[i] == 0 && c[j] == 0) {
                    continue;
                }
                double x = s[from + i] - s[from + j];
                // rhat_i depends on x through T_ij(x), rhat_j through T_ji(-x).
                double push = c[i] * slope(y[from + i], y[from + j], x) - c[j] * slope(y[from + j], y[from + i], -x);
                grad[from + i] += weight * push;
                grad[from + j] -= weight * push;
            }
        }
        return -sdcg * invIdcg;
    }

    /** T_ij(x), the amount document j adds to rhat_i at x = o_i - o_j. */
    private double term(float yi, float yj, double x) {
        if (!hinge || yi == yj) {
            return sigmoidG(alpha, x);
        }
        return yi > yj ? hingeA(x) : 1 + hingeA(-x);
    }

    /** dT_ij / dx. */
    private double slope(float yi, float yj, double x) {
        if (!hinge || yi == yj) {
            return slopeG(x);
        }
        return yi > yj ? slopeA(x) : -slopeA(-x);
    }

    private double hingeA(double x) {
        return x >= 0 ? sigmoidG(alpha, x) : 0.5 - 0.25 * alpha * x;
    }

    private double slopeA(double x) {
        return x >= 0 ? slopeG(x) : -0.25 * alpha;
    }

    private double slopeG(double x) {
        double g = sigmoidG(alpha, x);
        return -alpha * g * (1 - g);
    }

    /** G_a(x) = 1 / (1 + e^{a x}). */
    private static double sigmoidG(double a, double x) {
        return LossMath.logisticOfMinus(a * x);
    }

    /** s_t of Eq. 17: the largest rhat among the min(k, m) most relevant documents. */
    private double annealedCenter(double[] rhat, float[] y, int from, int m, SplittableRandom random) {
        int[] byLabel = Ranking.order(y, from, m, Ranking.randomTieKeys(m, random));
        double center = Double.NEGATIVE_INFINITY;
        for (int r = 0; r < Math.min(k, m); r++) {
            center = Math.max(center, rhat[byLabel[r]]);
        }
        return center;
    }
}
