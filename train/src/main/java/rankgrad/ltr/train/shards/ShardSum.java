package rankgrad.ltr.train.shards;

import rankgrad.ltr.train.BatchGradient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.model.RankingModel;

/**
 * Adds the shards of a training step into the step's gradient and batch-norm statistics, in shard
 * order, and installs them in the model so that its optimizer steps as after a local backward pass.
 *
 * <p>With n_k queries in shard k and N = sum_k n_k in the batch, the batch loss is the mean over
 * its queries, so
 * <pre>  L = sum_k (n_k / N) L_k,   dL/dp = sum_k (n_k / N) dL_k/dp,</pre>
 * accumulated in float64 in shard order 0, 1, ... and rounded once to the parameter's dtype: the
 * result depends on the shard count and never on where or in which order the shards were
 * computed. A single shard holding the whole batch is installed as it is (no arithmetic), which is
 * why one shard reproduces {@link rankgrad.ltr.train.Trainer#fit} bit for bit.
 *
 * <p>Batch normalization, per shard ("ghost batch norm", Hoffer et al. 2017): each shard's forward
 * pass normalizes with the mean and variance of its own documents, and the step's running
 * statistics are the shards' updated running statistics averaged with weights d_k / D (documents).
 * For the running mean that is exactly (1 - m) r + m mu with mu the batch mean; the running
 * variance averages the shards' variances and so leaves out the spread between shard means. Hence
 * a model with batch norm trained on S shards of B queries behaves like one trained with batch
 * statistics of B/S queries: it depends on S beyond float rounding. Statistics synchronized across
 * shards would need two more exchanges per batch-norm layer per step (forward and backward), each a
 * cluster round trip; models without batch norm (e.g. {@code linear}, or an MLP built without it)
 * differ between shard counts by float rounding only.
 */
public final class ShardSum {
    private ShardSum() {
    }

    /**
     * Combines {@code shards} (in shard order) and installs the result in {@code model}: its
     * parameters' gradients become dL/dp, its batch-norm buffers the averaged running statistics.
     * Returns the combined step (first query 0, all queries, loss L); when a shard went
     * non-finite, returns the first such shard's message and installs nothing.
     */
    public static BatchGradient install(RankingModel model, List<BatchGradient> shards) {
        int queries = 0;
        long documents = 0;
        BatchGradient only = null;
        for (BatchGradient s : shards) {
            if (s.nonFinite() != null) {
                return new BatchGradient(0, 0, 0, s.loss(), Map.of(), Map.of(), s.nonFinite());
            }
            queries += s.queries();
            documents += s.documents();
            if (s.queries() > 0) {
                only = only == null ? s : null;
            }
        }
        if (queries == 0) {
            throw new IllegalArgumentException("a training step needs at least one query; the shards have none");
        }
        BatchGradient step;
        if (only != null && only.queries() == queries) {
            step = new BatchGradient(0, queries, documents, only.loss(), only.gradients(), only.buffers(), null);
        } else {
            double loss = 0;
            for (BatchGradient s : shards) {
                loss += (double) s.queries() / queries * s.loss();
            }
            step = new BatchGradient(0, queries, documents, loss, weightedSum(shards, true, queries),
                    weightedSum(shards, false, documents), null);
        }
        installGradients(model, step.gradients());
        model.namedBuffers().forEach((name, live) -> {
            Tensor v = step.buffers().get(name);
            if (v == null) {
                throw new IllegalArgumentException("the shards have no batch-norm buffer '" + name + "'");
            }
            if (v != live) {
                copyInto(live, v);
            }
        });
        return step;
    }

    /** sum_k w_k t_k over the non-empty shards, per name, with w_k = n_k / total (queries or documents). */
    private static Map<String, Tensor> weightedSum(List<BatchGradient> shards, boolean gradients, long total) {
        Map<String, double[]> sums = new LinkedHashMap<>();
        Map<String, Tensor> like = new LinkedHashMap<>();
        for (BatchGradient s : shards) {
            if (s.queries() == 0) {
                continue;
            }
            double w = gradients ? (double) s.queries() / total : (double) s.documents() / total;
            Map<String, Tensor> terms = gradients ? s.gradients() : s.buffers();
            terms.forEach((name, t) -> {
                like.putIfAbsent(name, null);
                if (t == null) {
                    return;
                }
                like.put(name, t);
                double[] acc = sums.computeIfAbsent(name, n -> new double[t.size()]);
                for (int i = 0; i < acc.length; i++) {
                    acc[i] += w * t.get(i);
                }
            });
        }
        Map<String, Tensor> out = new LinkedHashMap<>();
        like.forEach((name, t) -> out.put(name, t == null ? null : toTensor(sums.get(name), t)));
        return out;
    }

    private static Tensor toTensor(double[] values, Tensor like) {
        Tensor out = Tensor.zerosLike(like);
        for (int i = 0; i < values.length; i++) {
            out.set(i, values[i]);
        }
        return out;
    }

    /** Makes {@code gradients} (by reference; null = none) the parameters' gradients, through a {@link GradientInjection}. */
    private static void installGradients(RankingModel model, Map<String, Tensor> gradients) {
        Map<String, Var> params = model.namedParameters();
        Var[] inputs = params.values().toArray(new Var[0]);
        Tensor[] grads = new Tensor[inputs.length];
        int i = 0;
        for (String name : params.keySet()) {
            grads[i++] = gradients.get(name);
        }
        for (Var p : inputs) {
            p.zeroGrad();
        }
        if (inputs.length == 0) {
            return;
        }
        DType dtype = inputs[0].dtype();
        Var.apply(new GradientInjection(grads, Tensor.scalar(dtype, 0)), inputs).backward();
    }

    private static void copyInto(Tensor target, Tensor source) {
        if (!target.sameShape(source)) {
            throw new IllegalArgumentException("a shard's batch-norm buffer has the wrong shape");
        }
        for (int i = 0; i < target.size(); i++) {
            target.set(i, source.get(i));
        }
    }
}
