package rankgrad.ltr.train;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import rankgrad.ltr.metric.Metric;

/**
 * Settings of a training run. Defaults follow Yu et al. Sec. 6.2: Adam with learning rate 1e-3
 * and L2 weight decay 1e-3 (added to the gradient, as PyTorch's {@code weight_decay}), model
 * selection on validation NDCG@5.
 *
 * @param epochs passes over the training queries at most
 * @param learningRate Adam's step size
 * @param l2 L2 weight decay
 * @param batchQueries queries per mini-batch (a batch is ragged: all their documents)
 * @param seed seeds the query order of each epoch and the losses' tie-breaks
 * @param patience epochs without a better validation value before stopping (0 = never stop early)
 * @param selection the validation metric that picks the best epoch
 * @param checkpoint where to write a checkpoint after every epoch (null = none); an existing
 *     checkpoint there is resumed
 */
public record TrainingConfig(int epochs, double learningRate, double l2, int batchQueries, long seed, int patience,
        Metric selection, Path checkpoint) {

    public TrainingConfig {
        Objects.requireNonNull(selection, "selection");
        if (epochs < 1 || batchQueries < 1 || patience < 0) {
            throw new IllegalArgumentException("epochs and batch size must be >= 1 and patience >= 0: " + epochs + ", "
                    + batchQueries + ", " + patience);
        }
        if (!(learningRate > 0) || !(l2 >= 0) || !Double.isFinite(learningRate) || !Double.isFinite(l2)) {
            throw new IllegalArgumentException("learning rate must be > 0 and L2 >= 0: " + learningRate + ", " + l2);
        }
    }

    /** 100 epochs, lr 1e-3, L2 1e-3, 64 queries per batch, seed 1, patience 20, NDCG@5, no checkpoint. */
    public static TrainingConfig defaults() {
        return new TrainingConfig(100, 1e-3, 1e-3, 64, 1L, 20, Metric.parse("ndcg@5"), null);
    }

    public TrainingConfig withEpochs(int n) {
        return new TrainingConfig(n, learningRate, l2, batchQueries, seed, patience, selection, checkpoint);
    }

    public TrainingConfig withLearningRate(double lr) {
        return new TrainingConfig(epochs, lr, l2, batchQueries, seed, patience, selection, checkpoint);
    }

    public TrainingConfig withL2(double weightDecay) {
        return new TrainingConfig(epochs, learningRate, weightDecay, batchQueries, seed, patience, selection, checkpoint);
    }

    public TrainingConfig withBatchQueries(int n) {
        return new TrainingConfig(epochs, learningRate, l2, n, seed, patience, selection, checkpoint);
    }

    public TrainingConfig withSeed(long s) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, s, patience, selection, checkpoint);
    }

    public TrainingConfig withPatience(int p) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, p, selection, checkpoint);
    }

    public TrainingConfig withSelection(Metric m) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, patience, m, checkpoint);
    }

    public TrainingConfig withCheckpoint(Path file) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, patience, selection, file);
    }

    /** The settings as JSON values, for model files and checkpoints (the checkpoint path left out). */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epochs", epochs);
        m.put("learningRate", learningRate);
        m.put("l2", l2);
        m.put("batchQueries", batchQueries);
        m.put("seed", Long.toString(seed));
        m.put("patience", patience);
        m.put("selection", selection.toString());
        return m;
    }
}
