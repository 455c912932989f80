package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Var;
import rankgrad.nn.Activation;
import rankgrad.nn.BatchNorm1d;
import rankgrad.nn.Mlp;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.RankingLoss;
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

    /**
     * Hidden layers of width 100 on batches of 960 rows: each fused layer's passes split into 3 row
     * chunks and the GEMMs into several blocks, so the thread count changes who runs what.
     */
    @Test
    void sameSeedSameModelBytesForOneTwoAndThreeThreadsWithWideLayers() throws IOException {
        TrainingConfig wide = config().withEpochs(3).withBatchQueries(48);
        List<String> models = new ArrayList<>();
        for (int threads = 1; threads <= 3; threads++) {
            Parallel.setThreads(threads);
            RankingModel m = RankingModel.of("test-mlp", Mlp.create(Mlp.builder(10).hidden(100, 100)
                    .activation(Activation.relu()).batchNorm(true).seed(5).spec()), new Normalization.QueryZScore());
            Trainer.of(wide).fit(m, LambdaRankLoss.create(4), TRAIN, VALID, TrainingListener.none());
            models.add(ModelFile.toJson(m));
        }
        assertEquals(models.get(0), models.get(1), "1 vs 2 threads");
        assertEquals(models.get(0), models.get(2), "1 vs 3 threads");
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
    void aCheckpointOfAnotherRunIsRefusedNamingWhatDiffers() throws IOException {
        Path ckpt = dir.resolve("run.ckpt");
        Trainer.of(config().withEpochs(1).withCheckpoint(ckpt)).fit(smallMlp(5), RankNetLoss.create(), TRAIN, VALID,
                TrainingListener.none());
        CheckpointException e = assertThrows(CheckpointException.class, () -> Trainer.of(config().withCheckpoint(ckpt))
                .fit(smallMlp(5), RankNetLoss.create(), TRAIN, VALID, TrainingListener.none()));
        assertEquals(CheckpointException.Reason.OTHER_RUN, e.reason());
        assertEquals(ckpt + " belongs to a different run, so it is not resumed: epochs (checkpoint: 1; this run: 6) differs",
                e.problem());
        assertTrue(e.getMessage().endsWith("; delete " + ckpt + " to start the run over"), e.getMessage());
    }

    @Test
    void aCheckpointOfOtherDataOfTheSameSizeIsRefused() throws IOException {
        Dataset otherTrain = CubicData.create(10, 6).sample("train", 96, 20, 1);
        Path ckpt = dir.resolve("run.ckpt");
        Trainer.of(config().withEpochs(1).withCheckpoint(ckpt)).fit(smallMlp(5), RankNetLoss.create(), TRAIN, VALID,
                TrainingListener.none());
        RankingModel model = smallMlp(5);
        String before = ModelFile.toJson(model);
        CheckpointException e = assertThrows(CheckpointException.class, () -> Trainer.of(config().withEpochs(1)
                .withCheckpoint(ckpt)).fit(model, RankNetLoss.create(), otherTrain, VALID, TrainingListener.none()));
        assertTrue(e.problem().contains(": training data (checkpoint: 96 queries, 1920 documents, 10 features, content sha256 ")
                && e.problem().endsWith(") differs"), e.problem());
        assertEquals(before, ModelFile.toJson(model), "nothing is trained");
    }

    @Test
    void aResumedRunReportsTheEpochsItsCheckpointHadAndKeepsTheirTestValues() throws IOException {
        TrainingResult whole = Trainer.of(config()).fit(smallMlp(4), RankNetLoss.create(), TRAIN, VALID, TEST,
                TrainingListener.none());
        assertTrue(whole.history().stream().noneMatch(r -> Double.isNaN(r.test())), "every epoch has its test value");
        Path ckpt = dir.resolve("run.ckpt");
        TrainingConfig withCkpt = config().withCheckpoint(ckpt);
        assertThrows(IllegalStateException.class, () -> Trainer.of(withCkpt).fit(smallMlp(4), RankNetLoss.create(), TRAIN,
                VALID, TEST, new TrainingListener() {
                    @Override
                    public void epochDone(EpochResult result) {
                        if (result.epoch() == 3) {
                            throw new IllegalStateException("killed");
                        }
                    }
                }));
        List<EpochResult> reported = new ArrayList<>();
        boolean[] finished = {true};
        TrainingResult resumed = Trainer.of(withCkpt).fit(smallMlp(4), RankNetLoss.create(), TRAIN, VALID, TEST,
                new TrainingListener() {
                    @Override
                    public void resumed(Path checkpoint, List<EpochResult> done, boolean ended) {
                        reported.addAll(done);
                        finished[0] = ended;
                    }
                });
        assertFalse(finished[0]);
        assertEquals(whole.history().subList(0, 3).stream().map(TrainerTest::withoutTime).toList(), reported);
        assertEquals(whole.history().stream().map(TrainerTest::withoutTime).toList(),
                resumed.history().stream().map(TrainerTest::withoutTime).toList());
    }

    private static EpochResult withoutTime(EpochResult r) {
        return new EpochResult(r.epoch(), r.trainLoss(), r.validation(), r.test(), r.best(), 0);
    }

    @Test
    void theOptimizerIsChosenInTheConfiguration() throws IOException {
        List<String> models = new ArrayList<>();
        for (OptimizerKind kind : OptimizerKind.values()) {
            RankingModel m = smallMlp(7);
            Trainer.of(config().withEpochs(2).withOptimizer(kind)).fit(m, RankNetLoss.create(), TRAIN, VALID,
                    TrainingListener.none());
            assertEquals(kind.label(), ((java.util.Map<?, ?>) m.info().get("training")).get("optimizer"));
            models.add(ModelFile.toJson(m).replace("\"" + kind.label() + "\"", ""));
        }
        assertEquals(3, models.stream().distinct().count(), "Adam, AdamW and SGD train different weights");
        assertEquals(OptimizerKind.ADAM, TrainingConfig.defaults().optimizer());
        assertEquals(OptimizerKind.ADAMW, OptimizerKind.parse("AdamW"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OptimizerKind.parse("rmsprop"));
        assertEquals("unknown optimizer 'rmsprop'; choose one of [adam, adamw, sgd]", e.getMessage());
    }

    @Test
    void aValidationSetWithoutRelevantDocumentsIsRefusedBeforeTraining() {
        Dataset zero = new Dataset("zero", 10, VALID.queries().stream().map(q -> new rankgrad.ltr.data.Query(q.qid(), 10, q.x(),
                new float[q.docs()])).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Trainer.of(config()).fit(smallMlp(1),
                RankNetLoss.create(), TRAIN, zero, TrainingListener.none()));
        assertEquals("zero: no query has a relevant document (every label is 0), so validation ndcg@5 is undefined and cannot"
                + " select an epoch", e.getMessage());
    }

    @Test
    void anOverflowingStepStopsTrainingNamingTheWeightAndKeepsTheInitialOne() throws IOException {
        RankingModel model = RankingModel.create("linear", 10, new Normalization.QueryZScore(), 3);
        String initial = ModelFile.toJson(model);
        // SGD's float32 step lr * g is infinite for lr 1e300: the first step makes the weights infinite or NaN.
        TrainingResult r = Trainer.of(config().withOptimizer(OptimizerKind.SGD).withLearningRate(1e300)).fit(model,
                RankNetLoss.create(), TRAIN, VALID, TrainingListener.none());
        assertEquals(TrainingResult.Stop.DIVERGED, r.stop());
        assertTrue(r.message().matches("training diverged at epoch 1, batch 1 of 6: after the step, the weight layers\\.0\\."
                + "weight\\[\\d+\\] is (NaN|-?Infinity); keeping the initial weights \\(no epoch finished\\); try a smaller"
                + " learning rate"), r.message());
        assertEquals(0, r.bestEpoch());
        model.info().clear();
        assertEquals(initial, ModelFile.toJson(model), "the initial weights are kept, and they can be written");
    }

    @Test
    void aNonFiniteGradientStopsTrainingNamingTheParameter() throws IOException {
        RankingLoss nanGradient = new RankingLoss() {
            @Override
            public Var loss(Var scores, QueryBatch batch) {
                Op<Void> op = Op.of("nan-gradient", in -> Op.result(Tensor.scalar(DType.F64, 0.5), null),
                        (saved, gradOut, needs) -> new Tensor[] {Tensor.full(DType.F32, Double.NaN, scores.value().shape())});
                return Var.apply(op, scores);
            }

            @Override
            public String name() {
                return "nan-gradient";
            }
        };
        TrainingResult r = Trainer.of(config()).fit(smallMlp(2), nanGradient, TRAIN, VALID, TrainingListener.none());
        assertEquals(TrainingResult.Stop.DIVERGED, r.stop());
        assertTrue(r.message().startsWith("training diverged at epoch 1, batch 1 of 6: the gradient of layers.0.weight[0] is"
                + " NaN; keeping the initial weights"), r.message());
    }

    @Test
    void nonFiniteValidationScoresOrBatchNormStatisticsStopTraining() throws IOException {
        RankingModel model = smallMlp(8);
        Tensor outputBias = model.network().namedParameters().get("layers.6.bias").value();
        // After the last batch of epoch 2 (its checks passed), the output bias becomes infinite: validation sees it first.
        TrainingResult r = Trainer.of(config()).fit(model, RankNetLoss.create(), TRAIN, VALID, new TrainingListener() {
            @Override
            public void batchDone(int epoch, int batch, int batches, double loss) {
                if (epoch == 2 && batch == batches) {
                    outputBias.set(0, Double.POSITIVE_INFINITY);
                }
            }
        });
        assertEquals(TrainingResult.Stop.DIVERGED, r.stop());
        assertTrue(r.message().matches("training diverged after epoch 2: the validation score of document 0 of query \\S+"
                + " is Infinity; keeping the best model so far \\(epoch 1\\); try a smaller learning rate"), r.message());
        assertEquals(1, r.history().size());
        assertTrue(Float.isFinite(outputBias.f32()[0]), "the best epoch's weights are restored");

        RankingModel other = smallMlp(8);
        BatchNorm1d norm = (BatchNorm1d) other.network().layers().modules().get(1);
        TrainingResult inTraining = Trainer.of(config()).fit(other, RankNetLoss.create(), TRAIN, VALID, new TrainingListener() {
            @Override
            public void batchDone(int epoch, int batch, int batches, double loss) {
                if (epoch == 1 && batch == 2) {
                    norm.runningVar().set(3, Double.NaN);
                }
            }
        });
        assertEquals("training diverged at epoch 1, batch 3 of 6: the batch-norm statistic layers.1.running_var[3] is NaN;"
                + " keeping the initial weights (no epoch finished); try a smaller learning rate", inTraining.message());
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
