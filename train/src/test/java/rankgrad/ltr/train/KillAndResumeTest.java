package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.nn.Activation;
import rankgrad.nn.Mlp;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/**
 * A training JVM killed with SIGKILL after its first checkpoint, then resumed from the checkpoint,
 * ends with the model file of the uninterrupted run, byte for byte: whatever instant the kill
 * lands on, the atomic checkpoint is either the previous or the next one, and the resumed run
 * replays the same batches with the same tie-breaks.
 */
class KillAndResumeTest {
    static final CubicData GEN = CubicData.create(8, 17);
    static final Dataset TRAIN = GEN.sample("train", 64, 16, 1);
    static final Dataset VALID = GEN.sample("valid", 16, 16, 2);

    @TempDir
    Path dir;

    static TrainingConfig config() {
        return TrainingConfig.defaults().withEpochs(6).withBatchQueries(8).withLearningRate(5e-3).withPatience(0).withSeed(9);
    }

    static RankingModel model() {
        return RankingModel.of("kill-test", Mlp.create(Mlp.builder(8).hidden(16).activation(Activation.relu()).batchNorm(true)
                .seed(4).spec()), new Normalization.QueryZScore());
    }

    static RankingLoss loss() {
        return Losses.parse("ndcg-type3", 5);
    }

    @Test
    void aKilledJvmResumesToTheUninterruptedModel() throws Exception {
        RankingModel whole = model();
        Trainer.of(config()).fit(whole, loss(), TRAIN, VALID, TrainingListener.none());

        Path checkpoint = dir.resolve("checkpoint.json");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules", "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"),
                KilledRunChild.class.getName(), checkpoint.toString()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(checkpoint) && child.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(Files.exists(checkpoint), "the child wrote no checkpoint: " + Files.readString(dir.resolve("child.log")));
        assertTrue(child.isAlive(), "the child must still be training when it is killed");
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

        RankingModel resumed = model();
        TrainingResult r = Trainer.of(config().withCheckpoint(checkpoint)).fit(resumed, loss(), TRAIN, VALID,
                TrainingListener.none());
        assertEquals(6, r.history().size());
        assertEquals(ModelFile.toJson(whole), ModelFile.toJson(resumed));
    }
}
