package rankgrad.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.autodiff.Tensor;
import rankgrad.nn.Activation;
import rankgrad.nn.Mlp;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.shards.LocalShards;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.ltr.train.TrainingResult;
import rankgrad.ltr.train.shards.VirtualShards;

class SparkTrainerTest {
    private static final CubicData GEN = CubicData.create(10, 5);
    private static final Dataset TRAIN = GEN.sample("train", 40, 12, 1);
    private static final Dataset VALID = GEN.sample("valid", 20, 12, 2);
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start(SparkTrainerTest.class);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static RankingModel mlp(boolean batchNorm) {
        return RankingModel.of("test-mlp", Mlp.create(Mlp.builder(10).hidden(12, 6).activation(Activation.relu())
                .batchNorm(batchNorm).seed(11).spec()), new Normalization.QueryZScore());
    }

    private static TrainingConfig config() {
        return TrainingConfig.defaults().withEpochs(3).withBatchQueries(12).withLearningRate(5e-3).withPatience(0)
                .withSeed(3);
    }

    /** The queries as a whole-query frame of {@code partitions} partitions, in file order. */
    private static org.apache.spark.sql.Dataset<QueryRow> frame(Dataset data, int partitions) {
        List<QueryRow> rows = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            Query q = data.queries().get(i);
            rows.add(new QueryRow("train.txt", i, q.qid(), q.labels(), q.x(), q.features(), null));
        }
        return spark.createDataset(rows, QueryFrames.encoder()).repartition(partitions);
    }

    private static RankingModel onSpark(boolean batchNorm, String loss, int shards, int partitions) throws IOException {
        RankingModel m = mlp(batchNorm);
        SparkTrainer.of(config(), shards, partitions).fit(spark, m, loss, frame(TRAIN, partitions), VALID, null,
                TrainingListener.none());
        return m;
    }

    private static void assertSameState(RankingModel a, RankingModel b) {
        Map<String, Tensor> sb = b.network().state();
        a.network().state().forEach((name, t) -> assertArrayEquals(t.f32(), sb.get(name).f32(), name));
    }

    @Test
    void oneShardEqualsTrainerFitBitForBit() throws IOException {
        RankingModel local = mlp(true);
        Trainer.of(config()).fit(local, Losses.parse("ndcg-type3", 3), TRAIN, VALID, TrainingListener.none());
        assertSameState(local, onSpark(true, "ndcg-type3", 1, 2));
    }

    @Test
    void aShardCountGivesOneModelOnOneTwoAndFourPartitionsAndInOneJvm() throws IOException {
        RankingModel local = mlp(true);
        Trainer.of(config()).fit(local, Losses.parse("listmle", 3), LocalShards.of(local, TRAIN, new VirtualShards(3)),
                VALID, null, TrainingListener.none());
        for (int partitions : new int[] {1, 2, 4}) {
            assertSameState(local, onSpark(true, "listmle", 3, partitions));
        }
    }

    @Test
    void batchNormFreeTrainingOnFourShardsStaysCloseToOneMachine() throws IOException {
        RankingModel local = mlp(false);
        Trainer.of(config()).fit(local, Losses.parse("lambdarank", 3), TRAIN, VALID, TrainingListener.none());
        RankingModel four = onSpark(false, "lambdarank", 4, 2);
        double worst = 0;
        for (Map.Entry<String, Tensor> e : local.network().state().entrySet()) {
            float[] a = e.getValue().f32();
            float[] b = four.network().state().get(e.getKey()).f32();
            for (int i = 0; i < a.length; i++) {
                worst = Math.max(worst, Math.abs(a[i] - b[i]));
            }
        }
        // 12 Adam steps of lr 5e-3. Four shards change only the float rounding of the gradient
        // (~1e-7 relative), which Adam's per-weight normalization can turn into at most a fraction
        // of one lr-sized move for a weight whose gradient is near 0: 1e-3 is a fifth of a step.
        // A wrong weighting of the shards (plain mean instead of n_k / N; the last shard of a
        // 40-query epoch is smaller) or other tie-breaks exceed it within a few steps.
        assertTrue(worst < 1e-3, "largest weight difference " + worst);
    }

    @Test
    void aKilledRunResumesToTheUninterruptedModel() throws IOException {
        TrainingConfig c = config().withCheckpoint(dir.resolve("run.ckpt"));
        RankingModel killed = mlp(true);
        TrainingListener dies = new TrainingListener() {
            @Override
            public void epochDone(rankgrad.ltr.train.EpochResult epoch) {
                if (epoch.epoch() == 2) {
                    throw new IllegalStateException("killed after the checkpoint of epoch 2");
                }
            }
        };
        assertThrows(IllegalStateException.class, () -> SparkTrainer.of(c, 2, 2).fit(spark, killed, "ranknet",
                frame(TRAIN, 2), VALID, null, dies));
        RankingModel resumed = mlp(true);
        TrainingResult r = SparkTrainer.of(c, 2, 3).fit(spark, resumed, "ranknet", frame(TRAIN, 3), VALID, null,
                TrainingListener.none());
        assertEquals(3, r.history().size());
        RankingModel straight = mlp(true);
        SparkTrainer.of(config(), 2, 1).fit(spark, straight, "ranknet", frame(TRAIN, 1), VALID, null,
                TrainingListener.none());
        assertSameState(straight, resumed);
    }

    @Test
    void globalStandardizationOfAFrameIsStandardizationFit() {
        Normalization.Standardization expected = Normalization.Standardization.fit(TRAIN);
        for (int partitions : new int[] {1, 3}) {
            Normalization.Standardization got = GlobalStandardization.fit(frame(TRAIN, partitions), 10);
            // Same floats: FeatureMoments' float64 rounding stays far below float32's on this data.
            assertArrayEquals(expected.mean(), got.mean());
            assertArrayEquals(expected.std(), got.std());
        }
    }
}
