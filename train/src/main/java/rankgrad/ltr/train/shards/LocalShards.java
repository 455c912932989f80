package rankgrad.ltr.train.shards;

import rankgrad.ltr.train.BatchGradient;
import rankgrad.ltr.train.InputNoise;
import rankgrad.ltr.train.RunFingerprint;
import rankgrad.ltr.train.StepGradient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.model.RankingModel;

/**
 * Step gradients computed in this JVM over {@link VirtualShards}: shard after shard, each from the
 * step's weights and batch-norm buffers, added by {@link ShardSum}. With one shard (the batch {@link
 * rankgrad.ltr.train.Trainer#fit} differentiates in one pass) that
 * is one forward and backward pass over the whole batch. With S shards it computes exactly what a
 * cluster computes with S shards, bit for bit, whatever the cluster's layout: the single-machine
 * reference of a distributed run.
 *
 * <p>Input noise ({@link InputNoise}) is drawn per training query and epoch, so it does not depend
 * on the shards either.
 */
public final class LocalShards implements StepGradient {
    private final Dataset raw;
    private final Dataset normalized;
    private final VirtualShards shards;
    private final InputNoise noise;
    private int epoch;

    private LocalShards(Dataset raw, Dataset normalized, VirtualShards shards, InputNoise noise) {
        this.raw = raw;
        this.normalized = normalized;
        this.shards = shards;
        this.noise = noise;
    }

    /**
     * The queries of {@code raw} (normalized here with the model's normalization) split into
     * {@code shards} per batch.
     */
    public static LocalShards of(RankingModel model, Dataset raw, VirtualShards shards) {
        return of(model, raw, shards, InputNoise.NONE);
    }

    /** {@link #of(RankingModel, Dataset, VirtualShards)} adding {@code noise} to the normalized training features. */
    public static LocalShards of(RankingModel model, Dataset raw, VirtualShards shards, InputNoise noise) {
        return new LocalShards(raw, model.normalize(raw), shards, noise);
    }

    @Override
    public void startEpoch(int epoch, int[] order, int batchQueries) {
        this.epoch = epoch;
    }

    @Override
    public double inputNoise() {
        return noise.sigma();
    }

    @Override
    public int queries() {
        return normalized.size();
    }

    @Override
    public Map<String, String> identity() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("training data", RunFingerprint.describe(raw));
        if (shards.count() > 1) {
            m.put("virtual shards", Integer.toString(shards.count()));
        }
        return m;
    }

    @Override
    public BatchGradient compute(RankingModel model, RankingLoss runLoss, int[] batch, long step) {
        Map<String, Tensor> start = shards.count() == 1 ? null : copy(model.namedBuffers());
        List<BatchGradient> parts = new ArrayList<>();
        for (int k = 0; k < shards.count(); k++) {
            int from = shards.start(batch.length, k);
            int to = shards.start(batch.length, k + 1);
            if (start != null) {
                start.forEach((name, t) -> {
                    Tensor live = model.namedBuffers().get(name);
                    for (int i = 0; i < t.size(); i++) {
                        live.set(i, t.get(i));
                    }
                });
            }
            int[] idx = Arrays.copyOfRange(batch, from, to);
            Tensor features = normalized.featureMatrix(idx);
            noise.addTo(features, normalized, idx, epoch);
            BatchGradient g = BatchGradient.compute(model, runLoss, normalized, features, idx, from, step);
            // The next shard's forward pass moves the live buffers again: keep this shard's own copy.
            parts.add(start == null ? g : new BatchGradient(g.firstQuery(), g.queries(), g.documents(), g.loss(),
                    g.gradients(), copy(g.buffers()), g.nonFinite()));
        }
        return ShardSum.install(model, parts);
    }

    private static Map<String, Tensor> copy(Map<String, Tensor> state) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        state.forEach((k, t) -> out.put(k, t.copy()));
        return out;
    }
}
