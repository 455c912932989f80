package rankgrad.ltr.rank;

import java.util.Arrays;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * The argument checks of the rank operators and the losses, one place for all of them, with
 * messages a user can act on: each names the operator or the setting and the bad value, and a bad
 * score its query. Public so that a user-written rank operator or loss reports bad input the same
 * way.
 */
public final class Inputs {
    private Inputs() {
    }

    /**
     * Checks that {@code scores} holds one finite value per document of {@code batch}: a vector, or
     * an N x 1 or 1 x N matrix, of {@code batch.documents()} values. A non-finite score is reported
     * with its query and document, so that a diverging model or a NaN feature can be traced.
     */
    public static void requireScores(String op, Tensor scores, QueryBatch batch) {
        boolean vectorLike = scores.rank() <= 1 || scores.dim(0) == 1 || scores.dim(1) == 1;
        if (!vectorLike || scores.size() != batch.documents()) {
            throw new IllegalArgumentException(op + " needs one score per document: a vector (or an N x 1 or 1 x N"
                    + " matrix) of " + batch.documents() + " values, got shape " + Arrays.toString(scores.shape()));
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

    /**
     * {@link #requireScores} for a loss, the mean over the batch's queries: the batch must also
     * hold at least one query, or the mean is undefined.
     */
    public static void requireLossInput(String loss, Tensor scores, QueryBatch batch) {
        if (batch.queries() == 0) {
            throw new IllegalArgumentException(loss + ": the batch has no queries, so the mean loss is undefined");
        }
        requireScores(loss, scores, batch);
    }

    /** Checks a steepness, slope or scale: finite and &gt; 0; returns it. */
    public static double requirePositiveFinite(String what, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be finite and > 0, got " + value);
        }
        return value;
    }

    /** Checks a rank cutoff k &gt;= 1; returns it. */
    public static int requireCutoff(String what, int k) {
        if (k < 1) {
            throw new IllegalArgumentException(what + " cutoff k must be >= 1, got " + k);
        }
        return k;
    }
}
