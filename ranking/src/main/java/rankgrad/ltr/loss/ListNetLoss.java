package rankgrad.ltr.loss;

import java.util.SplittableRandom;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;

/**
 * ListNet with top-one probabilities (Cao et al. 2007; DESIGN section 3.6): the cross-entropy
 * between the softmax of the labels and the softmax of the scores,
 *
 * <pre>
 *   L_q = -sum_i softmax(y)_i log softmax(s)_i = logsumexp(s) - sum_i softmax(y)_i s_i,
 *   dL_q / ds_i = softmax(s)_i - softmax(y)_i,
 * </pre>
 *
 * averaged over the batch's queries (a query without relevant documents gives 0). Both softmaxes
 * subtract their maximum first, so large scores do not overflow. O(m) time and O(1) extra memory
 * per query.
 *
 * <pre>{@code
 * Var loss = ListNetLoss.create().loss(scores, batch);
 * }</pre>
 *
 * <p>Thread-safety: immutable.
 */
public final class ListNetLoss implements RankingLoss {
    private static final ListNetLoss INSTANCE = new ListNetLoss();

    private ListNetLoss() {
    }

    public static ListNetLoss create() {
        return INSTANCE;
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new QueryLossOp(name(), batch, ListNetLoss::query, 0L, 0L, 0), scores);
    }

    @Override
    public String name() {
        return "listnet";
    }

    private static double query(double[] s, float[] y, int from, int m, SplittableRandom unused, double weight,
            double[] grad) {
        int end = from + m;
        double yMax = Double.NEGATIVE_INFINITY;
        double sMax = Double.NEGATIVE_INFINITY;
        for (int i = from; i < end; i++) {
            yMax = Math.max(yMax, y[i]);
            sMax = Math.max(sMax, s[i]);
        }
        double yNorm = 0;
        double sNorm = 0;
        for (int i = from; i < end; i++) {
            yNorm += Math.exp(y[i] - yMax);
            sNorm += Math.exp(s[i] - sMax);
        }
        double logSumExpS = sMax + Math.log(sNorm);
        double loss = logSumExpS;
        for (int i = from; i < end; i++) {
            double target = Math.exp(y[i] - yMax) / yNorm;
            double predicted = Math.exp(s[i] - logSumExpS);
            loss -= target * s[i];
            grad[i] += weight * (predicted - target);
        }
        return loss;
    }
}
