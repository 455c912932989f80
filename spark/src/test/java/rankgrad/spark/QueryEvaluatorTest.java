package rankgrad.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.eval.DocIds;
import rankgrad.ltr.eval.Judgments;
import rankgrad.ltr.eval.Run;
import rankgrad.ltr.eval.RunEvaluation;
import rankgrad.ltr.eval.TieOrder;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.MetricResult;
import rankgrad.ltr.metric.NoRelevantPolicy;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;

class QueryEvaluatorTest {
    private static final List<Metric> METRICS = List.of(Metric.parse("ndcg@10"), Metric.parse("ndcg"), Metric.parse("map@10"),
            Metric.parse("err@10"), Metric.parse("p@5"), Metric.parse("mrr"));

    private static SparkSession spark;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start(QueryEvaluatorTest.class);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    /** What {@code rankgrad eval --model} computes: the model's run matched to the file's grades by document id. */
    private static RunEvaluation evalInOneJvm(Path model, Path data) throws Exception {
        Scorer scorer = ModelFile.read(model).scorer();
        Judgments judgments = Judgments.readLetor(data, LetorOptions.DEFAULT, new DocIds(null));
        DocIds ids = new DocIds(null);
        Map<String, Map<String, Double>> queries = new LinkedHashMap<>();
        LetorReader.streamWithComments(data, scorer.features(), LetorOptions.DEFAULT, false, (q, comments) -> {
            String[] names = ids.names(data, q.qid(), comments);
            float[] s = scorer.score(q);
            Map<String, Double> docs = new LinkedHashMap<>();
            for (int i = 0; i < s.length; i++) {
                docs.put(names[i], (double) s[i]);
            }
            queries.put(q.qid(), docs);
        });
        return RunEvaluation.of(judgments, new Run(model.toString(), queries), TieOrder.STABLE);
    }

    @Test
    void metricsEqualEvalExactlyOnOneTwoAndFourPartitions() throws Exception {
        // Queries in many partitions (small splits), some without relevant documents, tied scores.
        Path data = LetorFixtures.write(dir, "eval.txt", LetorFixtures.text(60, 21));
        Path model = dir.resolve("model.json");
        ModelFile.write(RankingModel.create("R4.L", LetorFixtures.FEATURES, new Normalization.QueryZScore(), 5), model);
        RunEvaluation oneJvm = evalInOneJvm(model, data);
        QueryScorer scorer = QueryScorer.of(spark, ModelFile.read(model));
        Dataset<QueryRow> scored = scorer.transform(QueryFrames.readLetor(spark, LetorInput.of(data.toString())
                .withWidth(scorer.features()).withSplitBytes(2000))).cache();
        for (NoRelevantPolicy policy : NoRelevantPolicy.values()) {
            MetricConventions conv = MetricConventions.defaults().withNoRelevant(policy);
            for (int partitions : new int[] {1, 2, 4}) {
                SparkEvaluation got = QueryEvaluator.evaluate(scored.repartition(partitions), METRICS, conv);
                Map<String, Row> perQuery = new HashMap<>();
                for (Row r : got.perQuery().collectAsList()) {
                    perQuery.put(r.getString(1), r);
                }
                assertEquals(oneJvm.qids().size(), perQuery.size());
                for (int c = 0; c < METRICS.size(); c++) {
                    Metric m = METRICS.get(c);
                    String where = m + ", " + policy + ", " + partitions + " partitions";
                    double[] values = oneJvm.perQuery(m, conv);
                    for (int q = 0; q < values.length; q++) {
                        assertEquals(values[q], perQuery.get(oneJvm.qids().get(q)).getDouble(3 + c), 0.0,
                                where + ", query " + oneJvm.qids().get(q));
                    }
                    MetricResult expected = m.evaluate(oneJvm.scores(), oneJvm.batch(), conv);
                    MetricResult actual = got.results().get(c);
                    // Exact: the same per-query values summed in the same order.
                    assertEquals(expected.mean(), actual.mean(), 0.0, where);
                    assertEquals(expected.counted(), actual.counted(), where);
                    assertEquals(expected.withoutRelevant(), actual.withoutRelevant(), where);
                }
            }
        }
    }

    @Test
    void thePerQueryFrameIsComputedOnceForTheMeansAndTheListing() {
        LongAccumulator computed = spark.sparkContext().longAccumulator("queries computed");
        List<QueryRow> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            QueryRow q = new QueryRow("t", i, "q" + i, new float[] {i % 3, 1, 0}, new float[0], 0,
                    new String[] {"a", "b", "c"});
            q.setScores(new float[] {0.5f, i, -1});
            rows.add(q);
        }
        Dataset<QueryRow> scored = spark.createDataset(rows, QueryFrames.encoder()).repartition(3)
                .map((MapFunction<QueryRow, QueryRow>) q -> {
                    computed.add(1);
                    return q;
                }, QueryFrames.encoder());
        SparkEvaluation e = QueryEvaluator.evaluate(scored, List.of(Metric.parse("ndcg@5")), MetricConventions.defaults());
        long listed = 0;
        Iterator<Row> it = e.perQuery().sort("order", "qid").toLocalIterator();
        while (it.hasNext()) {
            it.next();
            listed++;
        }
        assertEquals(20, listed);
        // Uncached, the means' sort (its sampling job and its shuffle) and the listing's sort each
        // computed the frame again: 60 or more.
        assertEquals(20, computed.value());
    }
}
