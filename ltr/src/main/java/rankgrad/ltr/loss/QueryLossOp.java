package rankgrad.ltr.loss;

import java.util.Arrays;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * The custom-gradient node shared by the losses of this package: mean over the batch's queries of
 * a {@link QueryKernel}, with the gradient computed in the same fused pass as the value and kept as
 * the residual (O(N) memory, never a pair matrix).
 *
 * <p>Works in float64 internally for float32 and float64 scores; the output and the gradient take
 * the input's dtype. A query without relevant documents contributes 0 and a zero gradient but
 * counts in the mean's denominator. Queries run in parallel, one task per query (a partition that
 * depends only on the batch), each writing its own slice of the gradient and its own loss slot;
 * the loss is summed in query order afterwards, so results are bit-identical for any thread count.
 */
final class QueryLossOp implements Op<QueryLossOp.Saved> {

    /** The gradient of the mean loss for a unit upstream gradient, and the input's dtype and shape. */
    record Saved(double[] grad, DType dtype, int[] shape) {
    }

    private final String name;
    private final QueryBatch batch;
    private final QueryKernel kernel;
    private final long seed;
    private final long call;

    QueryLossOp(String name, QueryBatch batch, QueryKernel kernel, long seed, long call) {
        this.name = name;
        this.batch = batch;
        this.kernel = kernel;
        this.seed = seed;
        this.call = call;
    }

    @Override
    public Result<Saved> forward(Tensor... inputs) {
        if (inputs.length != 1) {
            throw new IllegalArgumentException(name + " takes one input (the scores), got " + inputs.length);
        }
        Tensor scores = inputs[0];
        checkShape(scores);
        int queries = batch.queries();
        if (queries == 0) {
            throw new IllegalArgumentException(name + ": the batch has no queries, so the mean loss is undefined");
        }
        double[] s = scores.toDoubleArray();
        checkFinite(s);
        float[] labels = batch.labels();
        double[] grad = new double[s.length];
        double[] perQuery = new double[queries];
        double weight = 1.0 / queries;
        Parallel.forEach(queries, q -> {
            if (batch.hasRelevant(q)) {
                perQuery[q] = kernel.lossAndGradient(s, labels, batch.start(q), batch.size(q),
                        QueryRandom.of(seed, call, q), weight, grad);
            }
        });
        double sum = 0;
        for (double v : perQuery) {
            sum += v;
        }
        return Op.result(Tensor.scalar(scores.dtype(), sum / queries), new Saved(grad, scores.dtype(), scores.shape()));
    }

    @Override
    public Tensor[] backward(Saved saved, Tensor gradOutput, boolean[] needsGrad) {
        if (!needsGrad[0]) {
            return new Tensor[] {null};
        }
        double g = gradOutput.item();
        Tensor out = Tensor.zeros(saved.dtype(), saved.shape());
        double[] grad = saved.grad();
        for (int i = 0; i < grad.length; i++) {
            out.set(i, g * grad[i]);
        }
        return new Tensor[] {out};
    }

    @Override
    public String name() {
        return name;
    }

    private void checkShape(Tensor scores) {
        boolean vectorLike = scores.rank() <= 1 || scores.dim(0) == 1 || scores.dim(1) == 1;
        if (!vectorLike || scores.size() != batch.documents()) {
            throw new IllegalArgumentException(name + " needs one score per document: a vector (or an N x 1 or 1 x N"
                    + " matrix) of " + batch.documents() + " values, got shape " + Arrays.toString(scores.shape()));
        }
    }

    private void checkFinite(double[] s) {
        for (int q = 0; q < batch.queries(); q++) {
            int end = batch.start(q) + batch.size(q);
            for (int i = batch.start(q); i < end; i++) {
                if (!Double.isFinite(s[i])) {
                    throw new IllegalArgumentException(name + ": score " + s[i] + " of document " + (i - batch.start(q))
                            + " of query " + q + " (flat index " + i + ") is not finite; check the model's output"
                            + " (diverged training or a bad feature value)");
                }
            }
        }
    }
}
