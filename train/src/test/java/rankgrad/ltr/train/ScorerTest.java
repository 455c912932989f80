package rankgrad.ltr.train;

import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.NonFiniteScoreException;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import rankgrad.nn.BatchNorm1d;
import rankgrad.nn.Layer;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.loss.RankNetLoss;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;

class ScorerTest {
    private static final CubicData GEN = CubicData.create(8, 3);
    private static final Dataset TRAIN = GEN.sample("train", 32, 12, 1);
    private static final Dataset VALID = GEN.sample("valid", 8, 12, 2);
    private static final Dataset DATA = GEN.sample("data", 40, 25, 3);

    /** R4.L trained two epochs, so its batch-norm running statistics are no longer the initial 0 and 1. */
    private static RankingModel trained() throws IOException {
        RankingModel m = RankingModel.create("R4.L", 8, new Normalization.QueryZScore(), 5);
        Trainer.of(TrainingConfig.defaults().withEpochs(2).withBatchQueries(8).withPatience(0)).fit(m, RankNetLoss.create(),
                TRAIN, VALID, TrainingListener.none());
        return m;
    }

    @Test
    void scoresFromManyThreadsAtOnceAreTheSingleThreadedBits() throws Exception {
        Scorer scorer = trained().scorer();
        float[][] expected = new float[DATA.size()][];
        for (int q = 0; q < DATA.size(); q++) {
            expected[q] = scorer.score(DATA.queries().get(q));
        }
        float[] whole = scorer.score(DATA);
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<float[][]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                Callable<float[][]> job = () -> {
                    start.await();
                    float[][] out = new float[DATA.size()][];
                    // Each thread walks the queries from its own offset, so different queries overlap in time.
                    for (int i = 0; i < DATA.size(); i++) {
                        int q = (i + offset * 5) % DATA.size();
                        out[q] = scorer.score(DATA.queries().get(q));
                    }
                    return out;
                };
                results.add(pool.submit(job));
            }
            results.add(pool.submit(() -> {
                start.await();
                return new float[][] {scorer.score(DATA)};
            }));
            start.countDown();
            for (int t = 0; t < threads; t++) {
                float[][] got = results.get(t).get();
                for (int q = 0; q < DATA.size(); q++) {
                    assertArrayEquals(expected[q], got[q], "thread " + t + ", query " + q);
                }
            }
            assertArrayEquals(whole, results.get(threads).get()[0]);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void sixteenThreadsScoreTheSameBitsWhileAnotherThreadLoadsNewModels() throws Exception {
        RankingModel m = trained();
        Scorer scorer = m.scorer();
        float[] expected = scorer.score(DATA);
        String otherFile = ModelFile.toJson(RankingModel.create("B64", 8, new Normalization.QueryZScore(), 9));
        int threads = 16;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            List<Future<float[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    float[] last = null;
                    for (int round = 0; round < 2; round++) {
                        last = scorer.score(DATA);
                        assertArrayEquals(expected, last);
                    }
                    return last;
                }));
            }
            // Loading builds networks, loads their state and scores with them: none of it may touch the shared scorer.
            Future<float[]> loader = pool.submit(() -> {
                start.await();
                float[] s = null;
                for (int round = 0; round < 3; round++) {
                    s = ModelFile.fromJson(otherFile).scorer().score(DATA);
                }
                return s;
            });
            start.countDown();
            for (Future<float[]> r : results) {
                assertArrayEquals(expected, r.get());
            }
            assertArrayEquals(ModelFile.fromJson(otherFile).scorer().score(DATA), loader.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void scoringNeitherTogglesTheModelNorFollowsItsLaterTraining() throws IOException {
        RankingModel m = trained();
        m.train();
        Scorer before = m.scorer();
        Query q = DATA.queries().get(0);
        float[] first = before.score(q);
        assertTrue(batchNorms(m).stream().allMatch(BatchNorm1d::isTraining), "the model stays in training mode");
        Trainer.of(TrainingConfig.defaults().withEpochs(1).withBatchQueries(8).withPatience(0)).fit(m, RankNetLoss.create(),
                TRAIN, VALID, TrainingListener.none());
        assertArrayEquals(first, before.score(q), "a scorer is a snapshot");
        assertFalse(Arrays.equals(first, m.scorer().score(q)), "a new scorer sees the new weights");
    }

    @Test
    void featureRowsWithoutLabelsScoreLikeTheQuery() throws IOException {
        Scorer scorer = trained().scorer();
        Query q = DATA.queries().get(3);
        assertArrayEquals(scorer.score(q), scorer.score(q.x().clone(), q.docs()));
        float[] all = scorer.score(DATA);
        int at = 0;
        for (Query each : DATA.queries()) {
            assertArrayEquals(scorer.score(each), Arrays.copyOfRange(all, at, at + each.docs()), each.qid());
            at += each.docs();
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> scorer.score(new float[7], 1));
        assertTrue(e.getMessage().contains("7 feature values are not 1 documents of 8 features"), e.getMessage());
    }

    @Test
    void aScoreThatOverflowsIsRefusedNamingQueryAndDocument() {
        RankingModel m = RankingModel.create("linear", 8, new Normalization.None(), 1);
        m.network().namedParameters().get("layers.0.weight").value().set(5, Float.MAX_VALUE);
        Query q = new Query("q7", 8, new float[16], new float[2]);
        q.x()[8 + 5] = 4f;
        NonFiniteScoreException e = assertThrows(NonFiniteScoreException.class, () -> m.scorer().score(q));
        assertEquals("q7", e.qid());
        assertEquals(1, e.document());
        assertEquals(Float.POSITIVE_INFINITY, e.score());
        assertTrue(e.getMessage().contains("document 1 (0-based) of query q7 is Infinity"), e.getMessage());
    }

    private static List<BatchNorm1d> batchNorms(RankingModel m) {
        List<BatchNorm1d> out = new ArrayList<>();
        for (Layer l : m.network().layers().modules()) {
            if (l instanceof BatchNorm1d b) {
                out.add(b);
            }
        }
        assertFalse(out.isEmpty());
        return out;
    }
}
