package rankgrad.ltr.loss;

import java.util.Objects;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.rank.Inputs;

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
 * back-propagated once (Burges 2006, Sec. 5), with O(m) extra memory: the pair terms of
 * {@link PairwiseBackend#logisticPairsF32} with unit weights, in float32 for float32 scores.
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
    private final PairwiseBackend backend;

    private RankNetLoss(double sigma, PairwiseBackend backend) {
        this.sigma = Inputs.requirePositiveFinite("sigma_s", sigma);
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** RankNet with sigma_s = 1 on the selected pairwise backend. */
    public static RankNetLoss create() {
        return new RankNetLoss(1.0, PairwiseBackends.selected());
    }

    /** The same loss with the logistic's steepness sigma_s. */
    public RankNetLoss withSigma(double sigmaS) {
        return new RankNetLoss(sigmaS, backend);
    }

    /** The same loss on another pairwise backend. */
    @Override
    public RankNetLoss withBackend(PairwiseBackend other) {
        return new RankNetLoss(sigma, other);
    }

    public double sigma() {
        return sigma;
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new LogisticPairsOp(name(), batch, backend, sigma, new LogisticPairsOp.Unit()), scores);
    }

    @Override
    public String name() {
        return "ranknet";
    }
}
