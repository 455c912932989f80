package rankgrad.spark.submit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.autodiff.Tensor;
import rankgrad.cli.MetricsCsv;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.ltr.train.TrainingResult;
import rankgrad.spark.LocalSpark;

/** {@code rankgrad-spark train}: with one shard, {@code rankgrad train}'s model and metrics.csv. */
class TrainCommandTest {
    private static final CubicData GEN = CubicData.create(10, 5);
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start(TrainCommandTest.class);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    @Test
    void theTrainCommandWithOneShardTrainsWhatTrainerFitTrains() throws IOException {
        Path tr = dir.resolve("train.txt");
        Path va = dir.resolve("vali.txt");
        LetorWriter.write(GEN.sample("train", 40, 12, 1), tr);
        LetorWriter.write(GEN.sample("valid", 20, 12, 2), va);
        Path te = dir.resolve("test.txt");
        LetorWriter.write(GEN.sample("test", 10, 12, 3), te);
        int status = SparkMain.run("train", "--train", tr.toString(), "--valid", va.toString(),
                "--model", "linear", "--loss", "lambdarank", "--epochs", "2", "--batch-queries", "12", "--lr", "0.005",
                "--seed", "3", "--partitions", "2", "--test", te.toString(), "--out", dir.resolve("out").toString());
        assertEquals(0, status);
        RankingModel local = RankingModel.create("linear", 10, new Normalization.QueryZScore(), 3);
        TrainingConfig c = TrainingConfig.defaults().withEpochs(2).withBatchQueries(12).withLearningRate(0.005).withSeed(3);
        TrainingResult r = Trainer.of(c).fit(local, Losses.parse("lambdarank", 3), LetorReader.read(tr),
                LetorReader.read(va), LetorReader.read(te), TrainingListener.none());
        Map<String, Tensor> trained = ModelFile.read(dir.resolve("out/model.json")).network().state();
        local.network().state().forEach((name, t) -> assertArrayEquals(t.f32(), trained.get(name).f32(), name));
        // The test set is reported: metrics.csv is rankgrad train's, its test column included.
        String csv = Files.readString(dir.resolve("out/metrics.csv"));
        assertEquals(MetricsCsv.of(r.history(), "ndcg@5", true), csv);
        assertTrue(csv.startsWith("epoch,train_loss,valid_ndcg@5,test_ndcg@5,best\n"), csv);
    }
}
