package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Parallel;
import rankgrad.autodiff.Var;
import rankgrad.autodiff.nn.Activation;
import rankgrad.autodiff.nn.Mlp;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.RankingLoss;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.LambdaRankLoss;
import rankgrad.ltr.loss.RankNetLoss;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

class TrainerTest {
    private static final CubicData GEN = CubicData.create(10, 5);
    private static final Dataset TRAIN = GEN.sample("train", 96, 20, 1);
    private static final Dataset VALID = GEN.sample("valid", 48, 20, 2);
    private static final Dataset TEST = GEN.sample("test", 96, 20, 3);
    private static final Metric NDCG5 = Metric.parse("ndcg@5");

    @TempDir
    Path dir;

    @AfterEach
    void restoreThreads() {
        Parallel.setThreads(Runtime.getRuntime().availableProcessors());
    }

    private static RankingModel smallMlp(long seed) {
        return RankingModel.of("test-mlp", Mlp.create(Mlp.builder(10).hidden(16, 8).activation(Activation.relu())
                .batchNorm(true).seed(seed).spec()), new Normalization.QueryZScore());
    }

    private static TrainingConfig config() {
        return TrainingConfig.defaults().withEpochs(6).withBatchQueries(16).withLearningRate(5e-3).withPatience(0).withSeed(3);
    }

    static double testNdcg(RankingModel model) {
        Dataset t = model.normalize(TEST);
        return NDCG5.evaluate(model.scorer().scoreNormalized(t), t.labelBatch(t.allQueries()), MetricConventions.defaults()).mean();
    }

    static double randomNdcg() {
        SplittableRandom rng = new SplittableRandom(9);
        float[] s = new float[(int) TEST.documents()];
        for (int i = 0; i < s.length; i++) {
            s[i] = (float) rng.nextDouble();
        }
        return NDCG5.evaluate(s, TEST.labelBatch(TEST.allQueries()), MetricConventions.defaults()).mean();
    }

    @Test
    void rankNetLearnsCubicDataAndKeepsTheBestEpoch() throws IOException {
        RankingModel model = smallMlp(1);
        TrainingResult r = Trainer.of(config()).fit(model, RankNetLoss.create(), TRAIN, VALID, TrainingListener.none());
        assertEquals(TrainingResult.Stop.COMPLETED, r.stop(), r.message());
        assertEquals(6, r.history().size());
        double best = r.history().stream().mapToDouble(EpochResult::validation).max().orElseThrow();
        assertEquals(best, r.bestValidation(), 0.0);
        double random = randomNdcg();
        double learned = testNdcg(model);
        // 96 test queries: random NDCG@5 sits near 0.45 with a standard error of ~0.02; a learner is far above.
        assertTrue(learned > random + 0.1, "learned " + learned + " vs random " + random);
        assertEquals("ranknet", model.info().get("loss"));
    }

    @Test
    void sameSeedSameModelBytesForOneAndTwoThreads() throws IOException {
        Parallel.setThreads(1);
        RankingModel a = smallMlp(2);
        Trainer.of(config()).fit(a, LambdaRankLoss.create(4), TRAIN, VALID, TrainingListener.none());
        Parallel.setThreads(2);
        RankingModel b = smallMlp(2);
        Trainer.of(config()).fit(b, LambdaRankLoss.create(4), TRAIN, VALID, TrainingListener.none());
        assertEquals(ModelFile.toJson(a), ModelFile.toJson(b));
    }

    @Test
    void resumingAKilledRunGivesTheUninterruptedModelByteForByte() throws IOException {
        RankingModel whole = smallMlp(4);
        Trainer.of(config()).fit(whole, LambdaRankLoss.create(8), TRAIN, VALID, TrainingListener.none());

        Path ckpt = dir.resolve("run.ckpt");
        TrainingConfig withCkpt = config().withCheckpoint(ckpt);
        RuntimeException kill = new RuntimeException("killed");
        assertThrows(RuntimeException.class, () -> Trainer.of(withCkpt).fit(smallMlp(4), LambdaRankLoss.create(8), TRAIN, VALID,
                new TrainingListener() {
                    @Override
                    public void batchDone(int epoch, int batch, int batches, double loss) {
                        if (epoch == 4 && batch == 2) {
                            throw kill;
                        }
                    }
                }));
        assertTrue(Files.exists(ckpt));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary files are left behind");
        }
        RankingModel resumed = smallMlp(4);
        TrainingResult r = Trainer.of(withCkpt).fit(resumed, LambdaRankLoss.create(8), TRAIN, VALID, TrainingListener.none());
        assertEquals(6, r.history().size());
        assertEquals(ModelFile.toJson(whole), ModelFile.toJson(resumed));
    }

    @Test
    void aCheckpointOfAnotherRunIsRefused() throws IOException {
        Path ckpt = dir.resolve("run.ckpt");
        Trainer.of(config().withEpochs(1).withCheckpoint(ckpt)).fit(smallMlp(5), RankNetLoss.create(), TRAIN, VALID,
                TrainingListener.none());
        IOException e = assertThrows(IOException.class, () -> Trainer.of(config().withCheckpoint(ckpt)).fit(smallMlp(5),
                RankNetLoss.create(), TRAIN, VALID, TrainingListener.none()));
        assertTrue(e.getMessage().contains("belongs to a different run"), e.getMessage());
    }

    @Test
    void aNonFiniteLossStopsTrainingNamingEpochAndBatchAndKeepsTheBestModel() throws IOException {
        RankingLoss poisoned = new RankingLoss() {
            private final RankingLoss inner = RankNetLoss.create();
            private long step;

            @Override
            public RankingLoss atStep(long s) {
                step = s;
                return this;
            }

            @Override
            public Var loss(Var scores, QueryBatch batch) {
                Var l = inner.loss(scores, batch);
                // Batches per epoch: 96 / 16 = 6; step 15 is epoch 3, batch 3.
                return step == 15 ? Ops.mul(l, Double.NaN) : l;
            }

            @Override
            public String name() {
                return "poisoned";
            }
        };
        RankingModel model = smallMlp(6);
        TrainingResult r = Trainer.of(config()).fit(model, poisoned, TRAIN, VALID, TrainingListener.none());
        assertEquals(TrainingResult.Stop.DIVERGED, r.stop());
        assertTrue(r.message().startsWith("training diverged at epoch 3, batch 3 of 6: the loss is NaN"), r.message());
        assertEquals(2, r.history().size());
        double kept = testNdcg(model);
        assertFalse(Double.isNaN(kept));
        Dataset v = model.normalize(VALID);
        double validNow = NDCG5.evaluate(model.scorer().scoreNormalized(v), v.labelBatch(v.allQueries()),
                MetricConventions.defaults()).mean();
        assertEquals(r.bestValidation(), validNow, 0.0, "the model holds the best epoch's weights");
    }
}
