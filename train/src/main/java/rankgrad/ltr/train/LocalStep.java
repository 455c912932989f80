package rankgrad.ltr.train;

import java.util.LinkedHashMap;
import java.util.Map;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.model.RankingModel;

/**
 * The single-machine step: one forward and backward pass over the whole batch in this JVM, what
 * {@link Trainer#fit(RankingModel, RankingLoss, Dataset, Dataset, Dataset, TrainingListener)} uses.
 * The parameters' gradients are those the backward pass leaves and the batch-norm buffers those the
 * forward pass moved; nothing is copied or summed. A sharded run with one shard
 * ({@code rankgrad.ltr.train.shards.LocalShards}) gives the same bits, which its test checks.
 *
 * <p>Input noise ({@link InputNoise}) is drawn per training query and epoch.
 */
final class LocalStep implements StepGradient {
    private final Dataset raw;
    private final Dataset normalized;
    private final InputNoise noise;
    private int epoch;

    LocalStep(RankingModel model, Dataset raw, InputNoise noise) {
        this.raw = raw;
        this.normalized = model.normalize(raw);
        this.noise = noise;
    }

    @Override
    public int queries() {
        return normalized.size();
    }

    @Override
    public Map<String, String> identity() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("training data", RunFingerprint.describe(raw));
        return m;
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
    public BatchGradient compute(RankingModel model, RankingLoss runLoss, int[] batch, long step) {
        Tensor features = normalized.featureMatrix(batch);
        noise.addTo(features, normalized, batch, epoch);
        return BatchGradient.compute(model, runLoss, normalized, features, batch, 0, step);
    }
}
