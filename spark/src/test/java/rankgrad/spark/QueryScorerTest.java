package rankgrad.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;

class QueryScorerTest {
    private static SparkSession spark;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start(QueryScorerTest.class);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    /** predict's scores: the model file read back, the data streamed, each query scored alone. */
    private static List<float[]> predictScores(Path model, Path data) throws Exception {
        Scorer scorer = ModelFile.read(model).scorer();
        List<float[]> out = new ArrayList<>();
        LetorReader.streamWithComments(data, scorer.features(), LetorOptions.DEFAULT, !scorer.inputs().isAll(),
                (q, comments) -> out.add(scorer.score(q)));
        return out;
    }

    @Test
    void scoresEqualPredictBitForBitWithQueryNormalization() throws Exception {
        Path data = LetorFixtures.write(dir, "score.txt", LetorFixtures.text(40, 11));
        Path model = dir.resolve("zscore.json");
        // R4.L: BatchNorm (running statistics in evaluation mode) and query z-scores, both whole-query work.
        ModelFile.write(RankingModel.create("R4.L", LetorFixtures.FEATURES, new Normalization.QueryZScore(), 7), model);
        List<float[]> expected = predictScores(model, data);
        QueryScorer scorer = QueryScorer.of(spark, ModelFile.read(model));
        for (long split : new long[] {0, 600}) {
            List<QueryRow> got = scorer.transform(QueryFrames.readLetor(spark, LetorInput.of(data.toString())
                    .withWidth(scorer.features()).withSplitBytes(split)).repartition(3)).sort("order").collectAsList();
            assertEquals(expected.size(), got.size());
            for (int q = 0; q < got.size(); q++) {
                assertArrayEquals(bits(expected.get(q)), bits(got.get(q).getScores()), "query " + got.get(q).getQid());
            }
        }
    }

    @Test
    void documentRowsRankAsPredictWrites() throws Exception {
        Path data = LetorFixtures.write(dir, "docs.txt", LetorFixtures.text(15, 12));
        Path model = dir.resolve("linear.json");
        ModelFile.write(RankingModel.create("linear", LetorFixtures.FEATURES, new Normalization.None(), 3), model);
        List<float[]> expected = predictScores(model, data);
        List<QueryRow> queries = LetorFixtures.readInOneJvm(data, LetorFixtures.FEATURES, false);
        QueryScorer scorer = QueryScorer.of(spark, ModelFile.read(model));
        List<DocumentScore> got = scorer.transformToDocuments(QueryFrames.readLetor(spark, LetorInput.of(data.toString())
                .withWidth(scorer.features()).withSplitBytes(800))).collectAsList();
        int at = 0;
        for (int q = 0; q < queries.size(); q++) {
            float[] s = expected.get(q);
            int[] order = Ranking.order(s, 0, s.length, null);
            for (int r = 0; r < order.length; r++, at++) {
                DocumentScore d = got.get(at);
                String where = "query " + queries.get(q).getQid() + " rank " + (r + 1);
                assertEquals(queries.get(q).getQid(), d.getQid(), where);
                assertEquals(queries.get(q).getDocIds()[order[r]], d.getDocId(), where);
                assertEquals(r + 1, d.getRank(), where);
                assertEquals(Float.floatToIntBits(s[order[r]]), Float.floatToIntBits(d.getScore()), where);
                assertEquals(queries.get(q).getLabels()[order[r]], d.getLabel(), where);
            }
        }
        assertEquals(at, got.size());
    }

    /** Regression: broadcast ids restart with each SparkContext; a scorer cache keyed by them served the old model. */
    @Test
    void aNewSessionScoresWithItsOwnModel() throws Exception {
        Path data = LetorFixtures.write(dir, "sessions.txt", LetorFixtures.text(5, 13));
        Path first = dir.resolve("first.json");
        Path second = dir.resolve("second.json");
        ModelFile.write(RankingModel.create("linear", LetorFixtures.FEATURES, new Normalization.None(), 1), first);
        ModelFile.write(RankingModel.create("linear", LetorFixtures.FEATURES, new Normalization.None(), 2), second);
        scoresOf(first, data);
        spark.stop();
        spark = LocalSpark.start(QueryScorerTest.class);
        List<QueryRow> got = scoresOf(second, data);
        List<float[]> expected = predictScores(second, data);
        for (int q = 0; q < got.size(); q++) {
            assertArrayEquals(bits(expected.get(q)), bits(got.get(q).getScores()), "query " + got.get(q).getQid());
        }
    }

    private static List<QueryRow> scoresOf(Path model, Path data) throws Exception {
        QueryScorer scorer = QueryScorer.of(spark, ModelFile.read(model));
        return scorer.transform(QueryFrames.readLetor(spark, LetorInput.of(data.toString()).withWidth(scorer.features())))
                .collectAsList();
    }

    private static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = Float.floatToIntBits(v[i]);
        }
        return b;
    }
}
