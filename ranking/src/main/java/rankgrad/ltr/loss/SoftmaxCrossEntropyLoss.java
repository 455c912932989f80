package rankgrad.ltr.loss;

import java.util.SplittableRandom;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;

/**
 * The softmax cross-entropy ranking loss, TF-Ranking's default listwise loss ({@code SoftmaxLoss}
 * in {@code tensorflow_ranking/python/losses_impl.py}; Bruch, Wang, Bendersky and Najork, ICTIR
 * 2019; docs/design.md §3.14): the cross-entropy between the labels normalized to sum one
 * and the softmax of the scores,
 *
 * <pre>
 *   L_q = -sum_i (y_i / sum_j y_j) log softmax(s)_i = logsumexp(s) - sum_i (y_i / sum_j y_j) s_i,
 *   dL_q / ds_i = softmax(s)_i - y_i / sum_j y_j,
 * </pre>
 *
 * averaged over the batch's queries. The targets are the raw grades divided by their sum (TF-Ranking's
 * {@code labels / label_sum}), not ListNet's softmax of the grades ({@link ListNetLoss}). Conventions
 * against TF-Ranking: a query whose grades sum to 0 gives 0 and a zero gradient here (TF-Ranking
 * gives it weight 0 too); TF-Ranking's default reduction then weighs each list by its grade sum,
 * rankgrad averages lists alike, as every {@link RankingLoss} does: per list the two are equal.
 *
 * <p>Implementation notes: the log-sum-exp subtracts the maximum score first, so large scores do
 * not overflow; float64 throughout, O(m) time and O(1) extra memory per query.
 *
 * <pre>{@code
 * Var loss = SoftmaxCrossEntropyLoss.create().loss(scores, batch);
 * }</pre>
 *
 * <p>Thread-safety: immutable.
 */
public final class SoftmaxCrossEntropyLoss implements RankingLoss {
    private static final SoftmaxCrossEntropyLoss INSTANCE = new SoftmaxCrossEntropyLoss();

    private SoftmaxCrossEntropyLoss() {
    }

    public static SoftmaxCrossEntropyLoss create() {
        return INSTANCE;
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new QueryLossOp(name(), batch, SoftmaxCrossEntropyLoss::query, 0L, 0L, 0), scores);
    }

    @Override
    public String name() {
        return "softmax-ce";
    }

    private static double query(double[] s, float[] y, int from, int m, SplittableRandom unused, double weight,
            double[] grad) {
        int end = from + m;
        double labelSum = 0;
        double sMax = Double.NEGATIVE_INFINITY;
        for (int i = from; i < end; i++) {
            labelSum += y[i];
            sMax = Math.max(sMax, s[i]);
        }
        double sNorm = 0;
        for (int i = from; i < end; i++) {
            sNorm += Math.exp(s[i] - sMax);
        }
        double logSumExp = sMax + Math.log(sNorm);
        double loss = logSumExp;
        for (int i = from; i < end; i++) {
            double target = y[i] / labelSum;
            loss -= target * s[i];
            grad[i] += weight * (Math.exp(s[i] - logSumExp) - target);
        }
        return loss;
    }
}
