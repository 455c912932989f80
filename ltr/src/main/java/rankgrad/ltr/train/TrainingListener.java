package rankgrad.ltr.train;

/** Progress of a training run (the CLI draws its progress bar from this). Methods default to nothing. */
public interface TrainingListener {

    /** After each mini-batch step. */
    default void batchDone(int epoch, int batch, int batches, double loss) {
    }

    /** After each epoch's validation. */
    default void epochDone(EpochResult result) {
    }

    /** A listener that does nothing. */
    static TrainingListener none() {
        return new TrainingListener() {
        };
    }
}
