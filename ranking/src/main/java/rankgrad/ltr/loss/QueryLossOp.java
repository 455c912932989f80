package rankgrad.ltr.loss;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.rank.Inputs;
import rankgrad.ltr.rank.TieBreak;

/**
 * The custom-gradient node of the losses whose per-query work is O(m) or O(m log m) and runs on the
 * CPU (ListNet, ListMLE, the regression term of REG-SHF-SDCG): mean over the batch's queries of a
 * {@link QueryKernel}, with the gradient computed in the same fused pass as the value and kept as
 * the residual (O(N) memory).
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
    private final int firstQuery;

    /**
     * The node for {@code batch}; query q draws from {@code TieBreak.generator(seed, call, firstQuery
     * + q)}, {@code firstQuery} being the position of the batch's query 0 in the training step's
     * whole batch (0 unless the batch is a shard of it).
     */
    QueryLossOp(String name, QueryBatch batch, QueryKernel kernel, long seed, long call, int firstQuery) {
        this.name = name;
        this.batch = batch;
        this.kernel = kernel;
        this.seed = seed;
        this.call = call;
        this.firstQuery = firstQuery;
    }

    @Override
    public Result<Saved> forward(Tensor... inputs) {
        if (inputs.length != 1) {
            throw new IllegalArgumentException(name + " takes one input (the scores), got " + inputs.length);
        }
        Tensor scores = inputs[0];
        Inputs.requireLossInput(name, scores, batch);
        int queries = batch.queries();
        double[] s = scores.toDoubleArray();
        float[] labels = batch.labels();
        double[] grad = new double[s.length];
        double[] perQuery = new double[queries];
        double weight = 1.0 / queries;
        Parallel.forEach(queries, q -> {
            if (batch.hasRelevant(q)) {
                perQuery[q] = kernel.lossAndGradient(s, labels, batch.start(q), batch.size(q),
                        TieBreak.generator(seed, call, firstQuery + q), weight, grad);
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
}
