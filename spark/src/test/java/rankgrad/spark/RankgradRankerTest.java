package rankgrad.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.pmod;
import static org.apache.spark.sql.functions.xxhash64;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.tuning.CrossValidator;
import org.apache.spark.ml.tuning.CrossValidatorModel;
import org.apache.spark.ml.tuning.ParamGridBuilder;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.Main;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.NoRelevantPolicy;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;

/**
 * The Spark ML stages end to end: {@code Pipeline(VectorAssembler, RankgradRanker)} on one row per
 * document, ML persistence, transform and {@link RankingEvaluator}, held against the {@code
 * rankgrad} command's {@code predict} and {@code eval} on the same documents as a LETOR file.
 */
class RankgradRankerTest {
    private static final int WIDTH = 10;
    private static final String[] FEATURES = Stream.iterate(1, f -> f + 1).limit(WIDTH).map(f -> "f" + f)
            .toArray(String[]::new);
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start(RankgradRankerTest.class);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    /** 40 queries of up to 12 documents, written as LETOR text and read back as predict reads them. */
    private Dataset letor(Path file) throws IOException {
        LetorWriter.write(CubicData.create(WIDTH, 5).sample("docs", 40, 12, 1), file);
        return LetorReader.read(file);
    }

    /**
     * One row per document: qid, label, f1..f10 (doubles holding the file's float32 values), pos
     * (the line's place in the file), doc (the position in its query) and isValid (every 4th query).
     */
    private static org.apache.spark.sql.Dataset<Row> documents(Dataset data) {
        List<StructField> fields = new ArrayList<>(List.of(DataTypes.createStructField("qid", DataTypes.StringType, false),
                DataTypes.createStructField("label", DataTypes.DoubleType, false)));
        for (String f : FEATURES) {
            fields.add(DataTypes.createStructField(f, DataTypes.DoubleType, false));
        }
        fields.add(DataTypes.createStructField("pos", DataTypes.LongType, false));
        fields.add(DataTypes.createStructField("doc", DataTypes.IntegerType, false));
        fields.add(DataTypes.createStructField("isValid", DataTypes.BooleanType, false));
        List<Row> rows = new ArrayList<>();
        long pos = 0;
        for (int qi = 0; qi < data.size(); qi++) {
            Query q = data.queries().get(qi);
            for (int d = 0; d < q.docs(); d++) {
                Object[] v = new Object[fields.size()];
                v[0] = q.qid();
                v[1] = (double) q.labels()[d];
                for (int f = 0; f < WIDTH; f++) {
                    v[2 + f] = (double) q.x()[d * WIDTH + f];
                }
                v[2 + WIDTH] = pos++;
                v[3 + WIDTH] = d;
                v[4 + WIDTH] = qi % 4 == 3;
                rows.add(RowFactory.create(v));
            }
        }
        return spark.createDataFrame(rows, DataTypes.createStructType(fields));
    }

    private static RankgradRanker ranker() {
        return new RankgradRanker().setGroupCol("qid").setOrderCol("pos").setValidationIndicatorCol("isValid")
                .setArchitecture("R4.L").setEpochs(1).setBatchQueries(16).setLearningRate(5e-3).setSeed(3);
    }

    private static String cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, status, err.toString());
        return out.toString();
    }

    @Test
    void pipelineSavedAndReloadedScoresAsPredictAndEvaluatesAsEval() throws IOException {
        Path file = dir.resolve("docs.txt");
        Dataset data = letor(file);
        org.apache.spark.sql.Dataset<Row> docs = documents(data);
        VectorAssembler assembler = new VectorAssembler().setInputCols(FEATURES).setOutputCol("features");
        PipelineModel fitted = new Pipeline().setStages(new PipelineStage[] {assembler, ranker().setShards(2)}).fit(docs);
        String saved = dir.resolve("pipeline").toUri().toString();
        fitted.write().overwrite().save(saved);
        PipelineModel back = PipelineModel.load(saved);
        RankgradRankingModel model = (RankgradRankingModel) back.stages()[1];
        assertEquals(((RankgradRankingModel) fitted.stages()[1]).modelFile(), model.modelFile());
        assertEquals("pos", model.getOrderCol());
        Path modelFile;
        try (Stream<Path> s = Files.walk(dir.resolve("pipeline"))) {
            modelFile = s.filter(p -> p.endsWith(Path.of("data", "model.json"))).findFirst().orElseThrow();
        }
        // The saved file is the model file itself, byte for byte: the CLI reads it as it is.
        assertEquals(model.modelFile(), Files.readString(modelFile));

        Path predictions = dir.resolve("predict.tsv");
        cli("predict", "--model", modelFile.toString(), "--data", file.toString(), "--out", predictions.toString());
        Map<String, Float> predicted = new HashMap<>();
        for (String line : Files.readAllLines(predictions).subList(1, (int) Files.lines(predictions).count())) {
            String[] c = line.split("\t");
            predicted.put(c[0] + "/" + c[1], Float.parseFloat(c[3]));
        }
        List<Row> scored = back.transform(docs).select("qid", "doc", "prediction", "f1", "isValid").collectAsList();
        assertEquals(predicted.size(), scored.size());
        Map<String, float[]> byQuery = new HashMap<>();
        for (Row r : scored) {
            double p = r.getDouble(2);
            float expected = predicted.get(r.getString(0) + "/" + r.getInt(1));
            assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits((float) p), r.toString());
            assertEquals((double) (float) p, p, "a float32 score widened exactly");
            byQuery.computeIfAbsent(r.getString(0), q -> new float[data.queries().stream()
                    .filter(x -> x.qid().equals(q)).findFirst().orElseThrow().docs()])[r.getInt(1)] = (float) p;
        }

        // eval's numbers: its printed line, and the exact mean it computes over predict's scores.
        org.apache.spark.sql.Dataset<Row> transformed = back.transform(docs);
        float[] flat = new float[Math.toIntExact(data.documents())];
        int at = 0;
        for (Query q : data.queries()) {
            float[] s = byQuery.get(q.qid());
            System.arraycopy(s, 0, flat, at, s.length);
            at += s.length;
        }
        QueryBatch batch = QueryBatch.of(data.queries().stream().map(Query::labels).toArray(float[][]::new));
        String printed = cli("eval", "--model", modelFile.toString(), "--data", file.toString(), "--metrics",
                "ndcg@10,map@5", "--no-relevant", "ZERO");
        for (String[] m : new String[][] {{"ndcg", "10"}, {"map", "5"}}) {
            RankingEvaluator evaluator = new RankingEvaluator().setGroupCol("qid").setOrderCol("pos").setMetricName(m[0])
                    .setK(Integer.parseInt(m[1])).setNoRelevant("zero");
            double value = evaluator.evaluate(transformed);
            Metric metric = Metric.parse(m[0] + "@" + m[1]);
            assertEquals(metric.evaluate(flat, batch, MetricConventions.defaults().withNoRelevant(NoRelevantPolicy.ZERO))
                    .mean(), value, 0.0, metric.toString());
            String line = String.format(Locale.ROOT, "%-10s %.4f", metric, value);
            assertTrue(printed.contains(line + "\n"), "'" + line + "' in:\n" + printed);
        }
    }

    @Test
    void aShardCountGivesOneModelFileOnOneTwoAndFourPartitions() throws IOException {
        org.apache.spark.sql.Dataset<Row> docs = new VectorAssembler().setInputCols(FEATURES).setOutputCol("features")
                .transform(documents(letor(dir.resolve("docs.txt"))));
        List<String> files = new ArrayList<>();
        for (int partitions : new int[] {1, 2, 4}) {
            files.add(ranker().setShards(2).setPartitions(partitions).fit(docs.repartition(partitions)).modelFile());
        }
        assertEquals(files.get(0), files.get(1));
        assertEquals(files.get(0), files.get(2));
        // One shard is rankgrad-spark train's model, whose own tests hold it to Trainer.fit; two shards
        // differ from it (batch norm per shard), so the comparison above is not between empty runs.
        String oneShard = ranker().fit(docs).modelFile();
        assertTrue(!oneShard.equals(files.get(0)), "1 and 2 shards gave one model");
    }

    @Test
    void crossValidationWithAQueryFoldColumnTunesTheRankerAndTheStagesSaveTheirParameters() throws IOException {
        org.apache.spark.sql.Dataset<Row> docs = new VectorAssembler().setInputCols(FEATURES).setOutputCol("features")
                .transform(documents(letor(dir.resolve("docs.txt"))))
                .withColumn("fold", pmod(xxhash64(col("qid")), lit(2)).cast("int"));
        RankgradRanker ranker = ranker().setEpochs(1);
        RankingEvaluator evaluator = new RankingEvaluator().setOrderCol("pos").setMetricName("ndcg").setK(5);
        ParamMap[] grid = new ParamGridBuilder().addGrid(ranker.learningRate(), new double[] {1e-4, 3e-2}).build();
        CrossValidatorModel cv = new CrossValidator().setEstimator(ranker).setEvaluator(evaluator)
                .setEstimatorParamMaps(grid).setNumFolds(2).setFoldCol("fold").fit(docs);
        double[] means = cv.avgMetrics();
        // Each grid point trained its own models (the learning rate reached the copies) on whole queries.
        assertEquals(2, means.length);
        assertTrue(means[0] > 0 && means[0] <= 1 && means[1] > 0 && means[1] <= 1, Arrays.toString(means));
        assertTrue(means[0] != means[1], Arrays.toString(means));
        assertTrue(cv.bestModel() instanceof RankgradRankingModel);

        String r = dir.resolve("ranker").toUri().toString();
        ranker.setShards(3).setLoss("listmle").write().save(r);
        RankgradRanker back = RankgradRanker.load(r);
        assertEquals(ranker.uid(), back.uid());
        assertEquals(3, back.getShards());
        assertEquals("listmle", back.getLoss());
        assertEquals("isValid", back.getValidationIndicatorCol());
        String e = dir.resolve("evaluator").toUri().toString();
        evaluator.write().save(e);
        assertEquals("ndcg@5", RankingEvaluator.load(e).metric().toString());
    }

    /** Regression: the validation collect, the count, the ordering and the layout each re-read and re-grouped the input. */
    @Test
    void fitGathersTheInputIntoQueriesOnce() throws IOException {
        org.apache.spark.sql.Dataset<Row> docs = new VectorAssembler().setInputCols(FEATURES).setOutputCol("features")
                .transform(documents(CubicData.create(WIDTH, 5).sample("docs", 12, 5, 1)));
        LongAccumulator read = spark.sparkContext().longAccumulator("documents read");
        org.apache.spark.sql.Dataset<Row> counted = docs.map((MapFunction<Row, Row>) r -> {
            read.add(1);
            return r;
        }, Encoders.row(docs.schema()));
        RankgradRankingModel model = ranker().setArchitecture("linear").setEpochs(1).fit(counted);
        assertTrue(model.modelFile().contains("\"linear\""), "a model was trained");
        assertEquals(docs.count(), read.value());
        assertEquals(0, spark.sparkContext().getPersistentRDDs().size(), "the gathered queries are unpersisted");
    }

    @Test
    void sparseAndDenseVectorsScoreAlike() {
        RankingModel m = RankingModel.create("linear", 4, new Normalization.QueryZScore(), 7);
        RankgradRankingModel model = new RankgradRankingModel("m", ModelFile.toJson(m)).setOrderCol("pos");
        StructType schema = DataTypes.createStructType(List.of(DataTypes.createStructField("qid", DataTypes.IntegerType,
                false), DataTypes.createStructField("pos", DataTypes.IntegerType, false),
                DataTypes.createStructField("features", new VectorUDT(), false)));
        float[][] x = {{0, 1.5f, 0, -2}, {3, 0, 0, 0.25f}, {0, 0, 0, 1}};
        List<Row> dense = new ArrayList<>();
        List<Row> sparse = new ArrayList<>();
        for (int d = 0; d < x.length; d++) {
            double[] v = new double[4];
            for (int f = 0; f < 4; f++) {
                v[f] = x[d][f];
            }
            dense.add(RowFactory.create(1, d, Vectors.dense(v)));
            sparse.add(RowFactory.create(1, d, Vectors.dense(v).toSparse()));
        }
        assertTrue(sparse.get(2).get(2) instanceof SparseVector);
        float[] expected = m.scorer().score(new Query("1", 4, new float[] {0, 1.5f, 0, -2, 3, 0, 0, 0.25f, 0, 0, 0, 1},
                new float[3]));
        for (List<Row> rows : List.of(dense, sparse)) {
            List<Row> out = model.transform(spark.createDataFrame(rows, schema)).orderBy("pos").collectAsList();
            for (int d = 0; d < x.length; d++) {
                assertEquals(expected[d], (float) out.get(d).getDouble(3));
            }
        }
    }

    @Test
    void unsupportedSettingsAreRefusedWithOneMessage() {
        org.apache.spark.sql.Dataset<Row> docs = new VectorAssembler().setInputCols(FEATURES).setOutputCol("features")
                .transform(documents(CubicData.create(WIDTH, 5).sample("docs", 4, 3, 1)));
        IllegalArgumentException w = assertThrows(IllegalArgumentException.class,
                () -> ranker().setWeightCol("label").fit(docs));
        assertTrue(w.getMessage().startsWith("weightCol 'label': rankgrad's losses take no per-row weights"), w.getMessage());
        IllegalArgumentException n = assertThrows(IllegalArgumentException.class,
                () -> ranker().setInputNoise(0.1).fit(docs));
        assertTrue(n.getMessage().startsWith("inputNoise 0.1: Gaussian input noise is not supported on Spark"),
                n.getMessage());
        IllegalArgumentException c = assertThrows(IllegalArgumentException.class,
                () -> ranker().setGroupCol("query").fit(docs));
        assertTrue(c.getMessage().startsWith("groupCol: no column 'query' in the input"), c.getMessage());
    }
}
