package rankgrad.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.simd.Parallel;

/**
 * The Spark ML stages and the query frames across {@code spark.stop()} and a new session in the
 * same JVM, as a notebook or an application server runs them: the second session gives the first
 * one's results, and a stopped session leaves nothing behind: no cached frame, no temporary file,
 * and rankgrad's thread pool at the size it had before (tasks in local mode run in this JVM and
 * size the pool to {@code spark.task.cpus} while they run).
 */
class SessionRestartTest {
    @TempDir
    Path dir;

    private SparkSession start(Path localDir) {
        return LocalSpark.builder(SessionRestartTest.class).config("spark.local.dir", localDir.toString()).getOrCreate();
    }

    /** Everything one session computes: the fitted model file, its scores, its metric, and a LETOR file's metric. */
    private List<String> run(SparkSession spark, Path letor, RankgradRankingModel earlier) throws IOException {
        org.apache.spark.sql.Dataset<Row> docs = new VectorAssembler().setInputCols(LetorFixtures.columns())
                .setOutputCol("features").transform(LetorFixtures.documentRows(spark, letor));
        RankgradRankingModel model = new RankgradRanker().setOrderCol("pos").setArchitecture("linear").setEpochs(1)
                .setBatchQueries(12).setShards(2).fit(docs);
        org.apache.spark.sql.Dataset<Row> scored = model.transform(docs);
        List<String> out = new ArrayList<>();
        out.add(model.modelFile());
        out.add(scored.orderBy("pos").select("prediction").collectAsList().toString());
        out.add(Double.toString(new RankingEvaluator().setOrderCol("pos").evaluate(scored)));
        if (earlier != null) {
            assertEquals(out.get(1), earlier.transform(docs).orderBy("pos").select("prediction").collectAsList()
                    .toString(), "the first session's model scores in the second");
        }
        QueryScorer scorer = QueryScorer.of(spark, ModelFile.fromJson(model.modelFile()));
        SparkEvaluation e = QueryEvaluator.evaluate(scorer.transform(QueryFrames.readLetor(spark,
                LetorInput.of(letor.toString()).withWidth(scorer.features()).withSplitBytes(700))),
                List.of(Metric.parse("map@5")), MetricConventions.defaults());
        out.add(Double.toString(e.results().get(0).mean()));
        e.perQuery().unpersist(true);
        assertEquals(List.of(), List.copyOf(JavaSparkContext.fromSparkContext(spark.sparkContext()).getPersistentRDDs()
                .keySet()), "cached frames left after fit, transform and evaluate");
        return out;
    }

    @Test
    void theStagesWorkAcrossAStoppedSessionAndLeaveNothingBehind() throws IOException {
        Path letor = LetorFixtures.write(dir, "docs.txt", LetorFixtures.text(12, 21));
        int threads = Parallel.threads();
        // A size no task would set (tasks use spark.task.cpus = 1), so a pool left behind shows.
        Parallel.setThreads(3);
        try {
            Path local = Files.createDirectories(dir.resolve("local"));
            SparkSession first = start(local);
            List<String> one;
            RankgradRankingModel model;
            try {
                one = run(first, letor, null);
                model = new RankgradRankingModel("m", one.get(0)).setOrderCol("pos");
                assertEquals(List.of(), rankgradFiles(local), "temporary files left after the jobs");
            } finally {
                first.stop();
            }
            assertEquals(3, Parallel.threads(), "rankgrad's pool after the session");
            SparkSession second = start(local);
            try {
                assertEquals(one, run(second, letor, model));
            } finally {
                second.stop();
            }
            assertEquals(3, Parallel.threads(), "rankgrad's pool after the second session");
        } finally {
            Parallel.setThreads(threads);
        }
    }

    /** Temporary files live in the executor's local directories and go with their task, failed or not. */
    @Test
    void taskFilesAreInSparksLocalDirectoriesAndGoWithTheirTask() throws IOException {
        Path local = Files.createDirectories(dir.resolve("local"));
        Path bad = LetorFixtures.write(dir, "bad.txt", LetorFixtures.text(12, 22).replaceFirst("\n(\\d) qid:(\\d+) 1:",
                "\n$1 qid:$2 1:abc 2:"));
        SparkSession spark = start(local);
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<String> seen = jsc.parallelize(List.of(1, 2), 2).map(i -> {
                Path f = TaskFiles.create("rankgrad-test-", ".txt");
                return f + " " + Files.exists(f);
            }).collect();
            for (String s : seen) {
                String[] p = s.split(" ");
                assertTrue(Path.of(p[0]).startsWith(local.toRealPath()) || Path.of(p[0]).startsWith(local), s);
                assertEquals("true", p[1], s);
                assertTrue(Files.notExists(Path.of(p[0])), "deleted when its task ended: " + s);
            }
            assertThrows(SparkException.class, () -> jsc.parallelize(List.of(1), 1).foreach(i -> {
                TaskFiles.create("rankgrad-test-", ".txt");
                throw new IllegalStateException("a task that fails after making its file");
            }));
            // A region read that fails on a bad value: its region copy goes too.
            Exception e = assertThrows(Exception.class, () -> QueryFrames.readLetor(spark, LetorInput.of(bad.toString())
                    .withSplitBytes(700)).count());
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            assertTrue(String.valueOf(cause.getMessage()).contains("'abc' is not a number"), cause.toString());
            assertEquals(List.of(), rankgradFiles(local));
        } finally {
            spark.stop();
        }
    }

    private static List<Path> rankgradFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("rankgrad-")).toList();
        }
    }
}
