package rankgrad.ltr.train;

import java.util.List;

/**
 * The outcome of a training run; the model passed to the trainer holds the best epoch's weights.
 *
 * @param stop why training ended
 * @param message a sentence for the user (names epoch and batch when training diverged)
 * @param bestEpoch the epoch whose weights the model holds (0 = none finished: initial weights)
 * @param bestValidation the selection metric at that epoch
 * @param history every finished epoch, in order
 */
public record TrainingResult(Stop stop, String message, int bestEpoch, double bestValidation, List<EpochResult> history) {

    /** Why a run ended. */
    public enum Stop {
        /** All epochs ran. */
        COMPLETED,
        /** Validation did not improve for {@code patience} epochs. */
        EARLY_STOPPED,
        /** A NaN or infinity appeared (scores, loss, gradients, weights, statistics or validation; see {@link Trainer}). */
        DIVERGED
    }

    public TrainingResult {
        history = List.copyOf(history);
    }
}
