package rankgrad.ltr.train;

import java.util.Map;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.model.RankingModel;

/**
 * Where {@link Trainer} gets the gradient of a training step: the training queries (by index
 * 0..{@link #queries()}-1, the order the epochs shuffle) and how a batch of them becomes the
 * gradient in the model's parameters. The trainer's own computes it in one pass in this JVM;
 * {@code rankgrad.ltr.train.shards} computes it over virtual shards, here or on a cluster, and
 * installs their sum ({@code ShardSum}). The optimizer
 * step, model selection, early stopping and checkpoints stay with the trainer, identical for all.
 */
public interface StepGradient {

    /** The number of training queries. */
    int queries();

    /**
     * What identifies the training data and the way gradients are formed, as {@link
     * RunFingerprint} entries: {@code "training data"} always, a shard count when it is not 1.
     */
    Map<String, String> identity();

    /**
     * Called before each epoch's first step with the epoch's query order: its batches are {@code
     * order}'s consecutive runs of {@code batchQueries} indices (the last may be shorter), in step
     * order. A cluster implementation lays the data out for the epoch here; the default does nothing.
     */
    default void startEpoch(int epoch, int[] order, int batchQueries) {
    }

    /**
     * The standard deviation of the Gaussian noise this source adds to the training features
     * ({@link InputNoise}); the trainer refuses a source whose noise is not its configuration's.
     */
    default double inputNoise() {
        return 0;
    }

    /**
     * Computes the gradient of training step {@code step} (1-based) over the queries {@code batch}
     * (in batch order) at the model's current weights and batch-norm buffers, and installs it
     * (a sharded source through {@code ShardSum.install}): the parameters' gradients and the buffers are the step's. The
     * model is in training mode. Returns the combined step; its {@code nonFinite} names the first
     * NaN or infinity met (then nothing is installed).
     *
     * @param runLoss the loss set up for the run ({@link RankingLoss#forRun})
     */
    BatchGradient compute(RankingModel model, RankingLoss runLoss, int[] batch, long step);
}
