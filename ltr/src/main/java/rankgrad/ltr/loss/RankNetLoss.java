package rankgrad.ltr.loss;

import java.util.SplittableRandom;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.RankingLoss;

/**
 * RankNet (Burges et al. 2005; DESIGN section 3.5): the pairwise logistic loss
 *
 * <pre>
 *   C_q = sum over pairs with y_i &gt; y_j of log(1 + exp(-sigma_s (s_i - s_j)))
 * </pre>
 *
 * averaged over the batch's queries (a query without relevant documents gives 0). Its gradient
 * dC/ds_i = -sum_{j less relevant} sigma_s / (1 + e^{sigma_s (s_i - s_j)}) + sum_{j more relevant}
 * sigma_s / (1 + e^{sigma_s (s_j - s_i)}) is gathered per document in the same O(m^2) pass and
 * back-propagated once (Burges 2006, Sec. 5), with O(m) extra memory.
 *
 * <pre>{@code
 * Var loss = RankNetLoss.create().loss(scores, batch);
 * loss.backward();
 * }</pre>
 *
 * <p>Implementation notes: the softplus is evaluated stably, so scores differing by 1e4 give a
 * finite loss and a gradient of exactly 0 or sigma_s per pair. Thread-safety: immutable.
 */
public final class RankNetLoss implements RankingLoss {
    private final double sigma;

    private RankNetLoss(double sigma) {
        LossMath.requirePositiveFinite("sigma_s", sigma);
        this.sigma = sigma;
    }

    /** RankNet with sigma_s = 1. */
    public static RankNetLoss create() {
        return new RankNetLoss(1.0);
    }

    /** The same loss with the logistic's steepness sigma_s. */
    public RankNetLoss withSigma(double sigmaS) {
        return new RankNetLoss(sigmaS);
    }

    public double sigma() {
        return sigma;
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new QueryLossOp(name(), batch, this::query, 0L, 0L), scores);
    }

    @Override
    public String name() {
        return "ranknet";
    }

    private double query(double[] s, float[] y, int from, int m, SplittableRandom unused, double weight, double[] grad) {
        double loss = 0;
        double[] pair = new double[2];
        for (int i = from; i < from + m; i++) {
            for (int j = i + 1; j < from + m; j++) {
                int hi;
                int lo;
                if (y[i] > y[j]) {
                    hi = i;
                    lo = j;
                } else if (y[j] > y[i]) {
                    hi = j;
                    lo = i;
                } else {
                    continue;
                }
                LossMath.logisticPair(sigma * (s[hi] - s[lo]), pair);
                loss += pair[0];
                double push = weight * sigma * pair[1];
                grad[hi] -= push;
                grad[lo] += push;
            }
        }
        return loss;
    }
}
