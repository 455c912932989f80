package rankgrad.ltr.train;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The training run {@link KillAndResumeTest} starts in its own JVM and kills with SIGKILL: the same
 * data, model, loss and settings as the test's uninterrupted run, checkpointing to {@code args[0]}.
 * Each batch sleeps a little so the kill lands in the middle of an epoch, between checkpoints.
 */
public final class KilledRunChild {
    private KilledRunChild() {
    }

    public static void main(String[] args) throws IOException {
        Trainer.of(KillAndResumeTest.config().withCheckpoint(Path.of(args[0]))).fit(KillAndResumeTest.model(),
                KillAndResumeTest.loss(), KillAndResumeTest.TRAIN, KillAndResumeTest.VALID, new TrainingListener() {
                    @Override
                    public void batchDone(int epoch, int batch, int batches, double loss) {
                        try {
                            Thread.sleep(40);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });
    }
}
