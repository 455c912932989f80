package rankgrad.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.Scorer;

/**
 * A trained rankgrad model as a Spark ML {@link Model}: {@code transform} gathers the document rows
 * of each query ({@code groupCol}) in document order ({@code orderCol}, else input order; see
 * {@link DocumentRows}), scores the query as {@code rankgrad predict} does ({@link Scorer#score}:
 * feature subset, normalization, network in evaluation mode) and returns every input row with
 * its columns and a {@code predictionCol} (double, the float32 score widened exactly, so equal bit
 * for bit to {@code predict}'s). The output has one row per input row, grouped by query, each
 * query's rows in document order.
 *
 * <p>It holds the model file's text, the bytes {@code rankgrad-spark train} writes as
 * {@code model.json} (an ensemble's file for {@code ensemble} &gt; 1). {@code write().save(path)}
 * stores Spark ML's metadata and {@code path/data/model.json} on any Hadoop file system; {@code
 * predict}, {@code eval} and {@code export} read that file as it is, and {@link #load} reads the
 * folder back.
 */
public final class RankgradRankingModel extends Model<RankgradRankingModel> implements MLWritable {
    private static final long serialVersionUID = 1L;
    /** The model file inside a saved model's folder. */
    static final String FILE = "data/model.json";

    private final String uid;
    private final String modelFile;

    /** Column of the feature vectors (ML vector, dense or sparse). */
    public final Param<String> featuresCol;
    /** Column of the query ids. */
    public final Param<String> groupCol;
    /** Column of the scores appended. */
    public final Param<String> predictionCol;
    /** Optional column of the documents' order within a query; "" = input order. */
    public final Param<String> orderCol;

    /**
     * A model of the given model file's text (a single model or an ensemble, as {@code ModelFile}
     * writes them).
     */
    public RankgradRankingModel(String uid, String modelFile) {
        this.uid = uid;
        this.modelFile = modelFile;
        // After the uid: a Param takes its parent's uid when it is made.
        featuresCol = new Param<>(this, "featuresCol", "features column (ML vector)");
        groupCol = new Param<>(this, "groupCol", "query id column");
        predictionCol = new Param<>(this, "predictionCol", "prediction column (the score)");
        orderCol = new Param<>(this, "orderCol", "document order column (\"\": input order)");
        ExecutorScorers.parse(modelFile);
        setDefault(featuresCol, "features");
        setDefault(groupCol, "qid");
        setDefault(predictionCol, "prediction");
        setDefault(orderCol, "");
    }

    @Override
    public String uid() {
        return uid;
    }

    /** The model file's text, as {@code ModelFile} writes it. */
    public String modelFile() {
        return modelFile;
    }

    // Accessors as Spark ML finds parameters: public no-argument methods returning a Param.
    public Param<String> featuresCol() { return featuresCol; }
    public Param<String> groupCol() { return groupCol; }
    public Param<String> predictionCol() { return predictionCol; }
    public Param<String> orderCol() { return orderCol; }

    public RankgradRankingModel setFeaturesCol(String v) { set(featuresCol, v); return this; }
    public RankgradRankingModel setGroupCol(String v) { set(groupCol, v); return this; }
    public RankgradRankingModel setPredictionCol(String v) { set(predictionCol, v); return this; }
    public RankgradRankingModel setOrderCol(String v) { set(orderCol, v); return this; }

    public String getFeaturesCol() { return getOrDefault(featuresCol); }
    public String getGroupCol() { return getOrDefault(groupCol); }
    public String getPredictionCol() { return getOrDefault(predictionCol); }
    public String getOrderCol() { return getOrDefault(orderCol); }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        StructType out = transformSchema(dataset.schema());
        Dataset<Row> g = DocumentRows.grouped(dataset, getGroupCol(), getOrderCol());
        int f = DocumentRows.index(DocumentRows.docSchema(g), getFeaturesCol(), "featuresCol");
        int keep = dataset.schema().size();
        SparkSession spark = dataset.sparkSession();
        Broadcast<String> text = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(modelFile);
        String key = UUID.randomUUID().toString();
        return g.flatMap((FlatMapFunction<Row, Row>) group -> {
            TaskThreads.limit();
            Scorer scorer = ExecutorScorers.of(key, text);
            String qid = DocumentRows.qid(group);
            Row[] docs = DocumentRows.sorted(group, qid);
            float[] x = DocumentRows.features(docs, f, qid);
            float[] s = scorer.score(new Query(qid, x.length / docs.length, x, new float[docs.length]));
            List<Row> rows = new ArrayList<>(docs.length);
            for (int i = 0; i < docs.length; i++) {
                Object[] v = new Object[keep + 1];
                for (int c = 0; c < keep; c++) {
                    v[c] = docs[i].get(c);
                }
                v[keep] = (double) s[i];
                rows.add(RowFactory.create(v));
            }
            return rows.iterator();
        }, Encoders.row(out));
    }

    @Override
    public StructType transformSchema(StructType schema) {
        DocumentRows.index(schema, getFeaturesCol(), "featuresCol");
        DocumentRows.index(schema, getGroupCol(), "groupCol");
        if (!getOrderCol().isEmpty()) {
            DocumentRows.index(schema, getOrderCol(), "orderCol");
        }
        return outputSchema(schema, getPredictionCol());
    }

    /** {@code schema} with a non-null double column {@code prediction} appended (refused if present). */
    static StructType outputSchema(StructType schema, String prediction) {
        if (Arrays.asList(schema.fieldNames()).contains(prediction)) {
            throw new IllegalArgumentException("predictionCol: the input already has a column '" + prediction + "'");
        }
        List<StructField> fields = new ArrayList<>(Arrays.asList(schema.fields()));
        fields.add(DataTypes.createStructField(prediction, DataTypes.DoubleType, false));
        return DataTypes.createStructType(fields);
    }

    @Override
    public RankgradRankingModel copy(ParamMap extra) {
        RankgradRankingModel copy = new RankgradRankingModel(uid, modelFile);
        return copyValues(copy, extra).setParent(parent());
    }

    @Override
    public MLWriter write() {
        return new Writer(this);
    }

    /** Reads a model saved with {@code write().save(path)}. */
    public static MLReader<RankgradRankingModel> read() {
        return new Reader();
    }

    /** {@code read().load(path)}: a folder on any Hadoop file system. */
    public static RankgradRankingModel load(String path) {
        return read().load(path);
    }

    /** Spark ML's metadata (class, uid, parameters) and the model file, byte for byte. */
    private static final class Writer extends MLWriter {
        private final RankgradRankingModel model;

        Writer(RankgradRankingModel model) {
            this.model = model;
        }

        @Override
        public void saveImpl(String path) {
            DefaultParamsWriter.saveMetadata(model, path, sparkSession());
            Path file = new Path(path, FILE);
            try {
                FileSystem fs = file.getFileSystem(sparkSession().sparkContext().hadoopConfiguration());
                try (OutputStream o = fs.create(file, true)) {
                    o.write(model.modelFile.getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(file + ": " + e.getMessage(), e);
            }
        }
    }

    private static final class Reader extends MLReader<RankgradRankingModel> {
        @Override
        public RankgradRankingModel load(String path) {
            DefaultParamsReader.Metadata meta = DefaultParamsReader.loadMetadata(path, sparkSession(),
                    RankgradRankingModel.class.getName());
            Path file = new Path(path, FILE);
            String text;
            try {
                FileSystem fs = file.getFileSystem(sparkSession().sparkContext().hadoopConfiguration());
                try (InputStream in = fs.open(file)) {
                    text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(file + ": " + e.getMessage(), e);
            }
            RankgradRankingModel m;
            try {
                m = new RankgradRankingModel(meta.uid(), text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": not a valid rankgrad model file: " + e.getMessage(), e);
            }
            meta.getAndSetParams(m, scala.Option.empty());
            return m;
        }
    }
}
