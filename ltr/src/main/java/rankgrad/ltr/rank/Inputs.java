package rankgrad.ltr.rank;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/** Argument checks shared by the rank operators and losses, with messages a user can act on. */
final class Inputs {
    private Inputs() {
    }

    /**
     * Checks that {@code scores} has one finite value per document of {@code batch}; a non-finite
     * score is reported with its query, so that a diverging model or a NaN feature can be traced.
     */
    static void requireScores(String op, Tensor scores, QueryBatch batch) {
        if (scores.size() != batch.documents()) {
            throw new IllegalArgumentException(op + ": scores have " + scores.size() + " values but the batch has "
                    + batch.documents() + " documents");
        }
        for (int q = 0; q < batch.queries(); q++) {
            for (int i = batch.start(q); i < batch.start(q) + batch.size(q); i++) {
                double v = scores.dtype() == DType.F32 ? scores.f32()[i] : scores.f64()[i];
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException(op + ": score " + v + " of query " + q + " (document "
                            + (i - batch.start(q)) + " of the query, index " + i + " in the batch) is not finite;"
                            + " check the model for diverging weights or NaN features");
                }
            }
        }
    }

    /** Checks a sigmoid steepness or backward alpha: finite and &gt; 0. */
    static double requireAlpha(String what, double alpha) {
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException(what + " must be finite and > 0, got " + alpha);
        }
        return alpha;
    }
}
