package rankgrad.ltr.loss;

import java.util.SplittableRandom;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.rank.TieBreak;

/**
 * ListMLE (Xia et al. 2008; DESIGN section 3.6): the negative Plackett-Luce log-likelihood of the
 * label order. With pi the documents sorted by label descending (ties among equal labels broken by
 * a seeded random permutation),
 *
 * <pre>
 *   L_q = sum_{t=1..m} [ log sum_{u &gt;= t} exp(s_{pi(u)}) - s_{pi(t)} ],
 *   dL_q / ds_{pi(u)} = -1 + sum_{t &lt;= u} exp(s_{pi(u)} - lse_t),   lse_t = log sum_{v &gt;= t} exp(s_{pi(v)}),
 * </pre>
 *
 * averaged over the batch's queries (a query without relevant documents gives 0).
 *
 * <p>Implementation notes: the suffix log-sum-exps lse_t are accumulated from the end with a
 * stable log-add-exp; the gradient's inner sum is carried as P_u = sum_{t &lt;= u} exp(lse_u - lse_t)
 * = 1 + exp(lse_u - lse_{u-1}) P_{u-1}, whose terms are all at most 1, so nothing overflows.
 * O(m log m) time (the sort) and O(m) extra memory. The label tie-break of a query is drawn from
 * (seed, call number of this instance, query index) of {@link TieBreak}, so results do not depend
 * on threads; two instances made with the same seed give the same sequence of losses.
 *
 * <pre>{@code
 * RankingLoss listMle = ListMleLoss.create(7L);
 * Var loss = listMle.loss(scores, batch);
 * }</pre>
 *
 * <p>Thread-safety: safe to share; each {@link #loss} call takes the next call number atomically.
 */
public final class ListMleLoss implements RankingLoss {
    private final TieBreak tieBreak;

    private ListMleLoss(TieBreak tieBreak) {
        this.tieBreak = tieBreak;
    }

    /** ListMLE whose label ties are broken from {@code seed}. */
    public static ListMleLoss create(long seed) {
        return new ListMleLoss(TieBreak.seeded(seed));
    }

    /** The same loss drawing its tie-breaks for training step {@code step} (see {@link RankingLoss#atStep}). */
    @Override
    public ListMleLoss atStep(long step) {
        return atStep(step, 0);
    }

    /** The same loss for a shard of step {@code step}'s batch (see {@link RankingLoss#atStep(long, int)}). */
    @Override
    public ListMleLoss atStep(long step, int firstQuery) {
        return new ListMleLoss(TieBreak.seeded(tieBreak.seed(), step, firstQuery));
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new QueryLossOp(name(), batch, ListMleLoss::query, tieBreak.seed(), tieBreak.nextCall(),
                tieBreak.firstQuery()), scores);
    }

    @Override
    public String name() {
        return "listmle";
    }

    private static double query(double[] s, float[] y, int from, int m, SplittableRandom random, double weight,
            double[] grad) {
        int[] pi = Ranking.order(y, from, m, Ranking.randomTieKeys(m, random));
        double[] lse = new double[m];
        lse[m - 1] = s[from + pi[m - 1]];
        for (int t = m - 2; t >= 0; t--) {
            lse[t] = logAddExp(lse[t + 1], s[from + pi[t]]);
        }
        double loss = 0;
        double carried = 0;
        for (int u = 0; u < m; u++) {
            double su = s[from + pi[u]];
            loss += lse[u] - su;
            carried = 1 + (u == 0 ? 0 : Math.exp(lse[u] - lse[u - 1]) * carried);
            grad[from + pi[u]] += weight * (Math.exp(su - lse[u]) * carried - 1);
        }
        return loss;
    }

    /** log(e^a + e^b) without overflow. */
    private static double logAddExp(double a, double b) {
        double hi = Math.max(a, b);
        return hi + Math.log1p(Math.exp(-Math.abs(a - b)));
    }
}
