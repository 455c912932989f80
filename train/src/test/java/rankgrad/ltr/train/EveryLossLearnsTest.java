package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.LossFamily;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.RankingModel;

/**
 * Each loss of the registry (its example) trains Yu's R4.L on Burges' cubic data to a test NDCG@5
 * well above a random scorer, and twin-sigmoid nDCG-type3 beats the linear model trained the same
 * way (the cubic terms are out of a linear model's reach).
 */
class EveryLossLearnsTest {
    private static final int FEATURES = 20;
    private static final CubicData GEN = CubicData.create(FEATURES, 21);
    private static final Dataset TRAIN = GEN.sample("train", 240, 24, 1);
    private static final Dataset VALID = GEN.sample("valid", 80, 24, 2);
    private static final Dataset TEST = GEN.sample("test", 200, 24, 3);
    private static final Metric NDCG5 = Metric.parse("ndcg@5");
    private static final TrainingConfig CONFIG = TrainingConfig.defaults().withEpochs(12).withBatchQueries(24)
            .withLearningRate(3e-3).withPatience(0).withSeed(5);
    private static double random;
    private static double linear;

    @BeforeAll
    static void baselines() throws IOException {
        SplittableRandom rng = new SplittableRandom(1);
        float[] s = new float[(int) TEST.documents()];
        for (int i = 0; i < s.length; i++) {
            s[i] = (float) rng.nextDouble();
        }
        random = NDCG5.evaluate(s, TEST.labelBatch(TEST.allQueries()), MetricConventions.defaults()).mean();
        linear = trainAndTest("linear", "ndcg-type3");
    }

    private static double trainAndTest(String architecture, String lossName) throws IOException {
        RankingModel model = RankingModel.create(architecture, FEATURES, new Normalization.QueryZScore(), 7);
        RankingLoss loss = Losses.parse(lossName, 11);
        Trainer.of(CONFIG).fit(model, loss, TRAIN, VALID, TrainingListener.none());
        Dataset t = model.normalize(TEST);
        return NDCG5.evaluate(model.scorer().scoreNormalized(t), t.labelBatch(t.allQueries()), MetricConventions.defaults()).mean();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankgrad.ltr.loss.EveryLoss#families")
    void r4lLearnsCubicData(LossFamily family) throws IOException {
        String loss = family.example();
        double ndcg = trainAndTest("R4.L", loss);
        // 200 test queries: the random scorer's NDCG@5 has a standard error near 0.015, so +0.15 is
        // ten standard errors: learning, not luck.
        assertTrue(ndcg > random + 0.15, loss + ": test NDCG@5 " + ndcg + ", random " + random);
        if (loss.equals("ndcg-type3")) {
            assertTrue(ndcg > linear + 0.03, "R4.L " + ndcg + " vs linear " + linear);
        }
        System.out.printf("%-16s test NDCG@5 %.4f (random %.4f, linear nDCG-type3 %.4f)%n", loss, ndcg, random, linear);
    }
}
