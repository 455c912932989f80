package rankgrad.ltr.train;

import java.util.LinkedHashMap;
import java.util.Map;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.RankingModel;

/**
 * The gradient of the loss over a batch of queries at the step's weights, with the batch-norm
 * statistics its forward pass produced: a whole training step in {@link Trainer}, or one shard's
 * part of it in a sharded run ({@code rankgrad.ltr.train.shards}), whose {@code ShardSum} adds the
 * shards of a step in shard order.
 *
 * <p>The loss is {@code L_k = (1/n_k) sum_{q in shard k} l_q}, the mean over the shard's n_k
 * queries, drawn with {@link RankingLoss#atStep(long, int)} at the shard's first batch position, so
 * that its tie-breaks are those the whole batch would draw for the same queries.
 *
 * @param firstQuery the batch position of the shard's first query
 * @param queries n_k, the shard's queries (0 for an empty shard, which adds nothing)
 * @param documents the shard's documents (weights its batch-norm statistics)
 * @param loss L_k (NaN when {@code nonFinite} is set before the loss, 0 for an empty shard)
 * @param gradients dL_k/dp by parameter name (a null value: no gradient reached it); empty when
 *     the shard is empty or went non-finite
 * @param buffers the batch-norm buffers after the shard's forward pass (running statistics moved
 *     once from the step's start)
 * @param nonFinite what went NaN or infinite ("the score of document 3 of query 7 is NaN"), or null
 */
public record BatchGradient(int firstQuery, int queries, long documents, double loss, Map<String, Tensor> gradients,
        Map<String, Tensor> buffers, String nonFinite) {

    /** An empty shard (a batch with fewer queries than shards): weight 0, no gradient. */
    public static BatchGradient empty(int firstQuery) {
        return new BatchGradient(firstQuery, 0, 0, 0, Map.of(), Map.of(), null);
    }

    /**
     * Computes the shard of queries {@code idx} (indices into {@code normalized}, in batch order)
     * whose first query sits at batch position {@code firstQuery} of training step {@code step}
     * (1-based). {@code model} must be in training mode with the step's weights and buffers; its
     * parameters' gradients are replaced and its buffers move (the returned tensors are its own,
     * live until its next forward pass or {@code zeroGrad}).
     *
     * @param runLoss the loss set up for the run ({@link RankingLoss#forRun}); this method takes
     *     its step and shard
     */
    public static BatchGradient compute(RankingModel model, RankingLoss runLoss, Dataset normalized, int[] idx,
            int firstQuery, long step) {
        return compute(model, runLoss, normalized, idx.length == 0 ? null : normalized.featureMatrix(idx), idx,
                firstQuery, step);
    }

    /**
     * {@link #compute(RankingModel, RankingLoss, Dataset, int[], int, long)} on {@code features},
     * the feature matrix of the queries {@code idx} as the step sees it (with input noise added).
     * Dropout masks are those of {@code step} ({@link rankgrad.nn.Mlp#setDropoutStep}).
     */
    public static BatchGradient compute(RankingModel model, RankingLoss runLoss, Dataset normalized, Tensor features,
            int[] idx, int firstQuery, long step) {
        if (idx.length == 0) {
            return empty(firstQuery);
        }
        Map<String, Var> params = model.namedParameters();
        params.values().forEach(Var::zeroGrad);
        long documents = 0;
        for (int q : idx) {
            documents += normalized.queries().get(q).docs();
        }
        model.network().setDropoutStep(step);
        QueryBatch batch = normalized.labelBatch(idx);
        Var scores = model.forward(features, batch.offsets());
        Map<String, Tensor> buffers = model.namedBuffers();
        String bad = nonFiniteScore(scores.value(), normalized, idx);
        if (bad == null) {
            // The batch-norm statistics moved in this forward pass.
            bad = NonFinite.find("the batch-norm statistic", buffers);
        }
        double l = Double.NaN;
        Var value = null;
        if (bad == null) {
            value = runLoss.atStep(step, firstQuery).loss(scores, batch);
            l = value.value().item();
            bad = Double.isFinite(l) ? null : "the loss is " + l;
        }
        Map<String, Tensor> grads = new LinkedHashMap<>();
        if (bad == null) {
            value.backward();
            params.forEach((name, p) -> grads.put(name, p.grad()));
        }
        return new BatchGradient(firstQuery, idx.length, documents, l, grads, buffers, bad);
    }

    /** "the score of document i of query q is x" for the first non-finite score, or null. */
    private static String nonFiniteScore(Tensor scores, Dataset data, int[] idx) {
        int at = 0;
        for (int q : idx) {
            Query query = data.queries().get(q);
            for (int d = 0; d < query.docs(); d++, at++) {
                double v = scores.get(at);
                if (!Double.isFinite(v)) {
                    return "the score of document " + d + " of query " + query.qid() + " is " + v;
                }
            }
        }
        return null;
    }
}
