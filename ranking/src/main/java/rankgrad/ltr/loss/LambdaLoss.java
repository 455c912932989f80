package rankgrad.ltr.loss;

import java.util.Objects;
import java.util.SplittableRandom;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.metric.ExactMetrics;
import rankgrad.ltr.rank.Inputs;
import rankgrad.ltr.rank.TieBreak;

/**
 * The NDCG losses of the LambdaLoss framework (Wang, Li, Golbandi, Bendersky and Najork, CIKM 2018;
 * docs/design.md §3.14): NDCG-Loss1, NDCG-Loss2 and NDCG-Loss2++ (the paper's names for its
 * metric-driven losses), as allRank computes them ({@code allrank/models/losses/lambdaLoss.py}, binary logarithm).
 *
 * <p>With the documents of a query sorted by score (positions p = 1..m, ties broken by a seeded
 * random permutation), G_p = (2^{y_p} - 1) / maxDCG@k the normalized gain and D(p) = 1 / log2(1 + p):
 * <pre>
 *   l_q = sum over pairs (p, q) with p, q &lt;= k of  w_pq log2(1 + e^{-sigma (s_p - s_q)})
 *       = -sum w_pq log2 sigma(sigma (s_p - s_q)),
 *   NDCG-Loss1:   every ordered pair, p = q included,  w_pq = G_p D(p)
 *   NDCG-Loss2:   pairs with y_p &gt; y_q,  w_pq = |D(|p - q|) - D(|p - q| + 1)| |G_p - G_q|
 *   NDCG-Loss2++: pairs with y_p &gt; y_q,  w_pq = mu delta_pq^{Loss2} + |D(p) - D(q)| |G_p - G_q|
 * </pre>
 * averaged over the batch's queries (allRank sums over the batch; a query without relevant
 * documents gives 0 here). The weights are piecewise constant in the scores (they change only when
 * two documents swap positions), so away from score ties the backward is the exact gradient of the
 * value at fixed positions: dl/ds_p = -sigma/ln 2 sum_q w_pq sigma(-sigma (s_p - s_q)) + ..., the
 * paper's EM step: the bound at the positions of the current ranking, minimized in the scores.
 *
 * <p>Conventions against allRank: allRank clamps sigma(.) and sigma(.)^w below at eps = 1e-10, so a
 * pair whose term exceeds log2(1e10) = 33.2 stops moving; here the softplus is evaluated stably and
 * every pair keeps its gradient (equal wherever allRank's clamps are inactive, which the reference
 * fixtures check). Truncation k (allRank's {@code k}) keeps the pairs whose positions are both
 * &lt;= k and divides by maxDCG@k; without it, k = m.
 *
 * <p>Implementation notes: O(min(k, m)^2) pair terms per query in float64 on the CPU, one
 * exponential per unordered pair; O(m) extra memory; ties of scores broken as LambdaRank breaks
 * them ({@link TieBreak}: seed, call, query), so results do not depend on threads.
 *
 * <pre>{@code
 * RankingLoss loss = LambdaLoss.ndcgLoss2PlusPlus(5.0, 42L).withTruncation(10);
 * Var value = loss.loss(scores, batch);
 * value.backward();
 * }</pre>
 *
 * <p>Thread-safety: safe to share; each {@link #loss} call takes the next call number atomically.
 */
public final class LambdaLoss implements RankingLoss {
    /** allRank's default mixing weight of NDCG-Loss2++. */
    public static final double DEFAULT_MU = 10.0;
    private static final double LN2 = Math.log(2.0);

    /** The weighing scheme (allRank's {@code ndcgLoss1_scheme}, {@code ndcgLoss2_scheme}, {@code ndcgLoss2PP_scheme}). */
    public enum Scheme {
        /** NDCG-Loss1: w_pq = G_p D(p), over every ordered pair. */
        NDCG_LOSS1,
        /** NDCG-Loss2: w_pq = delta_|p-q| |G_p - G_q|, over pairs with y_p &gt; y_q. */
        NDCG_LOSS2,
        /** NDCG-Loss2++: mu times NDCG-Loss2's weight plus LambdaRank's |D(p) - D(q)| |G_p - G_q|. */
        NDCG_LOSS2_PLUS_PLUS
    }

    private final Scheme scheme;
    private final double mu;
    private final double sigma;
    private final int truncation;
    private final TieBreak tieBreak;

    private LambdaLoss(Scheme scheme, double mu, double sigma, int truncation, TieBreak tieBreak) {
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        if (!(mu >= 0) || Double.isInfinite(mu)) {
            throw new IllegalArgumentException("NDCG-Loss2++ mixing weight mu must be finite and >= 0, got " + mu);
        }
        this.mu = mu;
        this.sigma = Inputs.requirePositiveFinite("sigma", sigma);
        if (truncation < 0) {
            throw new IllegalArgumentException("truncation k must be >= 1 (or 0 for none), got " + truncation);
        }
        this.truncation = truncation;
        this.tieBreak = Objects.requireNonNull(tieBreak, "tieBreak");
    }

    /** NDCG-Loss1, sigma = 1, no truncation, score ties broken from {@code seed}. */
    public static LambdaLoss ndcgLoss1(long seed) {
        return new LambdaLoss(Scheme.NDCG_LOSS1, DEFAULT_MU, 1.0, 0, TieBreak.seeded(seed));
    }

    /** NDCG-Loss2, sigma = 1, no truncation, score ties broken from {@code seed}. */
    public static LambdaLoss ndcgLoss2(long seed) {
        return new LambdaLoss(Scheme.NDCG_LOSS2, DEFAULT_MU, 1.0, 0, TieBreak.seeded(seed));
    }

    /** NDCG-Loss2++ with mixing weight {@code mu} ({@link #DEFAULT_MU} is allRank's), sigma = 1, no truncation. */
    public static LambdaLoss ndcgLoss2PlusPlus(double mu, long seed) {
        return new LambdaLoss(Scheme.NDCG_LOSS2_PLUS_PLUS, mu, 1.0, 0, TieBreak.seeded(seed));
    }

    /** The same loss over the top k positions (its tie-breaker starts again at call 0). */
    public LambdaLoss withTruncation(int k) {
        return new LambdaLoss(scheme, mu, sigma, Inputs.requireCutoff("LambdaLoss truncation", k), fresh());
    }

    /** The same loss with the logistic's steepness sigma (its tie-breaker starts again at call 0). */
    public LambdaLoss withSigma(double s) {
        return new LambdaLoss(scheme, mu, s, truncation, fresh());
    }

    public Scheme scheme() {
        return scheme;
    }

    public double mu() {
        return mu;
    }

    public double sigma() {
        return sigma;
    }

    /** The truncation k, or 0 for none. */
    public int truncation() {
        return truncation;
    }

    @Override
    public LambdaLoss atStep(long step) {
        return atStep(step, 0);
    }

    @Override
    public LambdaLoss atStep(long step, int firstQuery) {
        return new LambdaLoss(scheme, mu, sigma, truncation, TieBreak.seeded(tieBreak.seed(), step, firstQuery));
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new QueryLossOp(name(), batch, this::query, tieBreak.seed(), tieBreak.nextCall(),
                tieBreak.firstQuery()), scores);
    }

    @Override
    public String name() {
        String base = switch (scheme) {
            case NDCG_LOSS1 -> "ndcgloss1";
            case NDCG_LOSS2 -> "ndcgloss2";
            case NDCG_LOSS2_PLUS_PLUS -> "ndcgloss2++";
        };
        String k = truncation == 0 ? "" : "@" + truncation;
        return scheme == Scheme.NDCG_LOSS2_PLUS_PLUS ? base + k + ":" + mu : base + k;
    }

    private TieBreak fresh() {
        return TieBreak.seeded(tieBreak.seed());
    }

    /** One query: positions by score, then the pair terms of the top min(k, m) positions. */
    private double query(double[] s, float[] y, int from, int m, SplittableRandom random, double weight,
            double[] grad) {
        int[] order = Ranking.order(s, from, m, TieBreak.keys(random, m));
        int n = truncation == 0 ? m : Math.min(truncation, m);
        double inverseMaxDcg = 1.0 / ExactMetrics.idealDcg(y, from, m, truncation == 0 ? m : truncation);
        double[] g = new double[n];
        for (int p = 0; p < n; p++) {
            g[p] = ExactMetrics.gain(y[from + order[p]]) * inverseMaxDcg;
        }
        // Every pair term carries 1/ln 2 (log2); it is applied once to the sums.
        double loss = 0;
        double[] pg = new double[n];
        for (int p = 0; p < n; p++) {
            if (scheme == Scheme.NDCG_LOSS1) {
                // The pair (p, p): G_p D(p) log2(1 + e^0) = G_p D(p), with no gradient.
                loss += g[p] * ExactMetrics.discount(p + 1) * LN2;
            }
            for (int q = p + 1; q < n; q++) {
                loss += pair(s, y, from, order, g, p, q, pg);
            }
        }
        for (int p = 0; p < n; p++) {
            grad[from + order[p]] += weight * pg[p] / LN2;
        }
        return loss / LN2;
    }

    /**
     * The terms of the unordered pair of positions p &lt; q in natural log units; adds their
     * derivatives into pg (by position).
     */
    private double pair(double[] s, float[] y, int from, int[] order, double[] g, int p, int q, double[] pg) {
        double z = sigma * (s[from + order[p]] - s[from + order[q]]);
        double e = Math.exp(-Math.abs(z));
        // sigma(-z), sigma(z) and softplus(+-z) from one exponential, without overflow.
        double sigNeg = z >= 0 ? e / (1 + e) : 1 / (1 + e);
        double sigPos = z >= 0 ? 1 / (1 + e) : e / (1 + e);
        double log1pE = Math.log1p(e);
        double softplusNeg = Math.max(-z, 0) + log1pE;
        double softplusPos = Math.max(z, 0) + log1pE;
        if (scheme == Scheme.NDCG_LOSS1) {
            // Ordered pairs (p, q) and (q, p), weighted by the first position's G D.
            double wp = g[p] * ExactMetrics.discount(p + 1);
            double wq = g[q] * ExactMetrics.discount(q + 1);
            double t = sigma * (wq * sigPos - wp * sigNeg);
            pg[p] += t;
            pg[q] -= t;
            return wp * softplusNeg + wq * softplusPos;
        }
        float yp = y[from + order[p]];
        float yq = y[from + order[q]];
        if (yp == yq) {
            return 0;
        }
        int gap = q - p;
        double w = Math.abs(ExactMetrics.discount(gap) - ExactMetrics.discount(gap + 1)) * Math.abs(g[p] - g[q]);
        if (scheme == Scheme.NDCG_LOSS2_PLUS_PLUS) {
            w = mu * w + Math.abs(ExactMetrics.discount(p + 1) - ExactMetrics.discount(q + 1)) * Math.abs(g[p] - g[q]);
        }
        if (yp > yq) {
            double t = sigma * w * sigNeg;
            pg[p] -= t;
            pg[q] += t;
            return w * softplusNeg;
        }
        double t = sigma * w * sigPos;
        pg[q] -= t;
        pg[p] += t;
        return w * softplusPos;
    }
}
