package rankgrad.ltr.loss;

import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;

/** Runs a loss forward and backward on float64 scores. */
final class LossTesting {
    private LossTesting() {
    }

    /** The loss value and its gradient with respect to the scores. */
    record Evaluated(double value, double[] grad) {
    }

    static Evaluated evaluate(RankingLoss loss, QueryBatch batch, double... scores) {
        Var s = Var.param(Tensor.vector(scores));
        Var l = loss.loss(s, batch);
        l.backward();
        return new Evaluated(l.value().item(), s.grad().toDoubleArray());
    }
}
