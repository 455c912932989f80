package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.simd.Parallel;
import rankgrad.nn.Activation;
import rankgrad.nn.Mlp;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.LambdaRankLoss;
import rankgrad.ltr.io.Json;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/**
 * Training with input noise, dropout, a learning-rate schedule and the signed log1p transform:
 * each changes the result, and together they stay deterministic across thread counts and resume.
 */
class RegularizedTrainingTest {
    private static final CubicData GEN = CubicData.create(10, 5);
    private static final Dataset TRAIN = GEN.sample("train", 96, 20, 1);
    private static final Dataset VALID = GEN.sample("valid", 48, 20, 2);

    @TempDir
    Path dir;

    @AfterEach
    void restoreThreads() {
        Parallel.setThreads(Runtime.getRuntime().availableProcessors());
    }

    private static RankingModel model(double dropout, FeatureTransform t) {
        return RankingModel.of("test-mlp", Mlp.create(Mlp.builder(10).hidden(16, 8).activation(Activation.relu())
                .batchNorm(true).seed(4).dropout(dropout).spec()), new Normalization.QueryZScore()).withTransform(t);
    }

    private static TrainingConfig config(double noise, LearningRateSchedule schedule) {
        return TrainingConfig.defaults().withEpochs(4).withBatchQueries(16).withLearningRate(5e-3).withPatience(0)
                .withSeed(3).withInputNoise(noise).withSchedule(schedule);
    }

    private static final LearningRateSchedule COSINE = LearningRateSchedule.cosine(5);

    private static String train(RankingModel m, TrainingConfig c) throws IOException {
        Trainer.of(c).fit(m, LambdaRankLoss.create(8), TRAIN, VALID, TrainingListener.none());
        return ModelFile.toJson(m);
    }

    /** The trained weights and statistics alone (the info records the settings, which always differ). */
    private static String weights(RankingModel m, TrainingConfig c) throws IOException {
        train(m, c);
        return Json.write(ModelFile.tensors(m.network().state()));
    }

    @Test
    void everyOptionChangesTheTrainedWeights() throws IOException {
        String plain = weights(model(0, FeatureTransform.NONE), config(0, LearningRateSchedule.constant()));
        assertEquals(plain, weights(model(0, FeatureTransform.NONE), config(0, LearningRateSchedule.constant())),
                "the comparison itself is deterministic");
        assertNotEquals(plain, weights(model(0, FeatureTransform.NONE), config(0.1, LearningRateSchedule.constant())),
                "noise");
        assertNotEquals(plain, weights(model(0.2, FeatureTransform.NONE), config(0, LearningRateSchedule.constant())),
                "dropout");
        assertNotEquals(plain, weights(model(0, FeatureTransform.NONE), config(0, COSINE)), "schedule");
        assertNotEquals(plain, weights(model(0, FeatureTransform.SIGNED_LOG1P), config(0, LearningRateSchedule.constant())),
                "transform");
    }

    @Test
    void sameSeedSameBytesForOneAndThreeThreads() throws IOException {
        Parallel.setThreads(1);
        String a = train(model(0.2, FeatureTransform.SIGNED_LOG1P), config(0.1, COSINE));
        Parallel.setThreads(3);
        String b = train(model(0.2, FeatureTransform.SIGNED_LOG1P), config(0.1, COSINE));
        assertEquals(a, b);
    }

    @Test
    void aResumedRunEndsWithTheUninterruptedModelByteForByte() throws IOException {
        String whole = train(model(0.2, FeatureTransform.SIGNED_LOG1P), config(0.1, COSINE));
        TrainingConfig withCkpt = config(0.1, COSINE).withCheckpoint(dir.resolve("run.ckpt"));
        RuntimeException kill = new RuntimeException("killed");
        assertThrows(RuntimeException.class, () -> Trainer.of(withCkpt).fit(model(0.2, FeatureTransform.SIGNED_LOG1P),
                LambdaRankLoss.create(8), TRAIN, VALID, new TrainingListener() {
                    @Override
                    public void batchDone(int epoch, int batch, int batches, double loss) {
                        if (epoch == 3 && batch == 2) {
                            throw kill;
                        }
                    }
                }));
        assertEquals(whole, train(model(0.2, FeatureTransform.SIGNED_LOG1P), withCkpt));
    }

    @Test
    void aCheckpointIsNotResumedWithOtherRegularization() throws IOException {
        Path ckpt = dir.resolve("run.ckpt");
        train(model(0, FeatureTransform.NONE), config(0.1, COSINE).withEpochs(1).withCheckpoint(ckpt));
        CheckpointException e = assertThrows(CheckpointException.class, () -> train(model(0.3,
                FeatureTransform.SIGNED_LOG1P), config(0.2, LearningRateSchedule.cosine(6)).withEpochs(1)
                .withCheckpoint(ckpt)));
        for (String what : new String[] {"dropout 0.3", "feature transform", "input noise", "learning-rate schedule"}) {
            assertTrue(e.getMessage().contains(what), what + " in: " + e.getMessage());
        }
    }
}
