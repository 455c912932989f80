package rankgrad.ltr.train.gradientfree;

import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.model.RankingModel;

/**
 * A ranking loss on a whole data set as a function of the model's flat parameter vector:
 * L(theta) = loss(f_theta(X), labels), with X all documents of the (normalized) data and the
 * network in evaluation mode (the features are converted once to the network's dtype, so a
 * float64 model gives a float64 objective). Yue &amp; Burges Sec. 5.1 minimize RankNet's pairwise cross entropy
 * this way with SPSA and FDSA, where "a function evaluation requires forward propagating all the
 * training examples".
 *
 * <p>Each evaluation writes theta into the model ({@link ParameterVector#set}); after a run, set
 * the theta you want to keep. Not thread-safe.
 */
public final class LossObjective implements Objective {
    private final RankingModel model;
    private final ParameterVector parameters;
    private final RankingLoss loss;
    private final Tensor features;
    private final QueryBatch labels;

    private LossObjective(RankingModel model, RankingLoss loss, Dataset normalized) {
        this.model = model;
        this.parameters = ParameterVector.of(model);
        this.loss = loss;
        this.features = normalized.featureMatrix(normalized.allQueries()).to(model.network().spec().dtype());
        this.labels = normalized.labelBatch(normalized.allQueries());
    }

    /** {@code loss} of {@code model} on {@code normalized} (features already normalized by the model). */
    public static LossObjective of(RankingModel model, RankingLoss loss, Dataset normalized) {
        return new LossObjective(model, loss, normalized);
    }

    /** The parameters theta ranges over. */
    public ParameterVector parameters() {
        return parameters;
    }

    @Override
    public double value(double[] theta) {
        parameters.set(theta);
        model.eval();
        try (NoGrad ignored = NoGrad.enter()) {
            return loss.loss(model.forward(features, labels.offsets()), labels).value().item();
        }
    }
}
