package rankgrad.ltr.train;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;

/**
 * Settings of a training run. Defaults follow Yu et al. Sec. 6.2: Adam with learning rate 1e-3
 * and L2 weight decay 1e-3 (added to the gradient, as PyTorch's {@code weight_decay}), model
 * selection on validation NDCG@5.
 *
 * @param epochs passes over the training queries at most (&gt;= 1)
 * @param learningRate the optimizer's step size (finite, &gt; 0)
 * @param l2 weight decay lambda (finite, &gt;= 0), applied as {@code optimizer} defines it
 * @param batchQueries queries per mini-batch (&gt;= 1; a batch is ragged: all their documents)
 * @param seed seeds the query order of each epoch and the losses' tie-breaks
 * @param patience epochs without a better validation value before stopping (0 = never stop early)
 * @param selection the validation metric that picks the best epoch
 * @param optimizer the update rule
 * @param conventions how {@code selection} (and the test metric) are computed: ties, queries
 *     without relevant documents, ERR's grade maximum
 * @param checkpoint where to write a checkpoint after every epoch (null = none); an existing
 *     checkpoint of the same run there is resumed (see {@link Trainer})
 * @param schedule the learning rate of each step as a factor of {@code learningRate}
 * @param inputNoise sigma &gt;= 0 of the Gaussian noise added to the normalized training features
 *     (Qin et al. 2021, DASALC Sec. 3.2 data augmentation; 0 = none; see {@link InputNoise})
 */
public record TrainingConfig(int epochs, double learningRate, double l2, int batchQueries, long seed, int patience,
        Metric selection, OptimizerKind optimizer, MetricConventions conventions, Path checkpoint,
        LearningRateSchedule schedule, double inputNoise) {

    public TrainingConfig {
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(schedule, "schedule");
        if (!(inputNoise >= 0) || !Double.isFinite(inputNoise)) {
            throw new IllegalArgumentException("the input noise sigma must be finite and >= 0, got " + inputNoise);
        }
        Objects.requireNonNull(optimizer, "optimizer");
        Objects.requireNonNull(conventions, "conventions");
        if (epochs < 1) {
            throw new IllegalArgumentException("epochs must be >= 1, got " + epochs);
        }
        if (batchQueries < 1) {
            throw new IllegalArgumentException("queries per batch must be >= 1, got " + batchQueries);
        }
        if (patience < 0) {
            throw new IllegalArgumentException("patience must be >= 0 (0 = never stop early), got " + patience);
        }
        if (!(learningRate > 0) || !Double.isFinite(learningRate)) {
            throw new IllegalArgumentException("the learning rate must be finite and > 0, got " + learningRate);
        }
        if (!(l2 >= 0) || !Double.isFinite(l2)) {
            throw new IllegalArgumentException("the L2 weight decay must be finite and >= 0, got " + l2);
        }
    }

    /** Settings with a constant learning rate and no input noise. */
    public TrainingConfig(int epochs, double learningRate, double l2, int batchQueries, long seed, int patience,
            Metric selection, OptimizerKind optimizer, MetricConventions conventions, Path checkpoint) {
        this(epochs, learningRate, l2, batchQueries, seed, patience, selection, optimizer, conventions, checkpoint,
                LearningRateSchedule.constant(), 0.0);
    }

    /**
     * 100 epochs, Adam, lr 1e-3, L2 1e-3, 64 queries per batch, seed 1, patience 20, NDCG@5 with the
     * default metric conventions, no checkpoint, a constant learning rate, no input noise.
     */
    public static TrainingConfig defaults() {
        return new TrainingConfig(100, 1e-3, 1e-3, 64, 1L, 20, Metric.parse("ndcg@5"), OptimizerKind.ADAM,
                MetricConventions.defaults(), null);
    }

    public TrainingConfig withEpochs(int n) {
        return new TrainingConfig(n, learningRate, l2, batchQueries, seed, patience, selection, optimizer, conventions,
                checkpoint, schedule, inputNoise);
    }

    public TrainingConfig withLearningRate(double lr) {
        return new TrainingConfig(epochs, lr, l2, batchQueries, seed, patience, selection, optimizer, conventions,
                checkpoint, schedule, inputNoise);
    }

    public TrainingConfig withL2(double weightDecay) {
        return new TrainingConfig(epochs, learningRate, weightDecay, batchQueries, seed, patience, selection, optimizer,
                conventions, checkpoint, schedule, inputNoise);
    }

    public TrainingConfig withBatchQueries(int n) {
        return new TrainingConfig(epochs, learningRate, l2, n, seed, patience, selection, optimizer, conventions,
                checkpoint, schedule, inputNoise);
    }

    public TrainingConfig withSeed(long s) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, s, patience, selection, optimizer, conventions,
                checkpoint, schedule, inputNoise);
    }

    public TrainingConfig withPatience(int p) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, p, selection, optimizer, conventions,
                checkpoint, schedule, inputNoise);
    }

    public TrainingConfig withSelection(Metric m) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, patience, m, optimizer, conventions,
                checkpoint, schedule, inputNoise);
    }

    public TrainingConfig withOptimizer(OptimizerKind kind) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, patience, selection, kind, conventions,
                checkpoint, schedule, inputNoise);
    }

    public TrainingConfig withConventions(MetricConventions c) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, patience, selection, optimizer, c,
                checkpoint, schedule, inputNoise);
    }

    public TrainingConfig withCheckpoint(Path file) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, patience, selection, optimizer,
                conventions, file, schedule, inputNoise);
    }

    public TrainingConfig withSchedule(LearningRateSchedule s) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, patience, selection, optimizer,
                conventions, checkpoint, s, inputNoise);
    }

    public TrainingConfig withInputNoise(double sigma) {
        return new TrainingConfig(epochs, learningRate, l2, batchQueries, seed, patience, selection, optimizer,
                conventions, checkpoint, schedule, sigma);
    }

    /**
     * The settings as JSON values, for model files and checkpoints (the checkpoint path left out;
     * the metric conventions, schedule and input noise only where they differ from the defaults).
     */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epochs", epochs);
        m.put("optimizer", optimizer.label());
        m.put("learningRate", learningRate);
        m.put("l2", l2);
        m.put("batchQueries", batchQueries);
        m.put("seed", Long.toString(seed));
        m.put("patience", patience);
        m.put("selection", selection.toString());
        if (!conventions.equals(MetricConventions.defaults())) {
            m.put("conventions", conventions.describe());
        }
        if (!schedule.isConstant()) {
            m.put("schedule", schedule.describe());
        }
        if (inputNoise > 0) {
            m.put("inputNoise", inputNoise);
        }
        return m;
    }
}
