package rankgrad.ltr.train;

import java.nio.file.Path;
import java.util.List;

/** Progress of a training run (the CLI draws its progress bar from this). Methods default to nothing. */
public interface TrainingListener {

    /**
     * Once, before any batch, when the run continues from a checkpoint of the same run:
     * {@code done} holds the epochs the checkpoint had finished (with their validation and test
     * values), and {@code finished} says whether the run had already ended there (all epochs,
     * early stopping), in which case no batch follows.
     */
    default void resumed(Path checkpoint, List<EpochResult> done, boolean finished) {
    }

    /** After each mini-batch step. */
    default void batchDone(int epoch, int batch, int batches, double loss) {
    }

    /** After each epoch's validation (and checkpoint). */
    default void epochDone(EpochResult result) {
    }

    /** A listener that does nothing. */
    static TrainingListener none() {
        return new TrainingListener() {
        };
    }
}
