package rankgrad.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.Json;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.Architectures;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.OptimizerKind;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.simd.Parallel;

/**
 * rankgrad's ranker as a Spark ML {@link Estimator}: one row per document (a {@code featuresCol}
 * ML vector, dense or sparse, a {@code labelCol} grade and a {@code groupCol} query id), trained
 * by {@link SparkTrainer} on the executors into a {@link RankgradRankingModel}. Its parameters
 * are {@code rankgrad train}'s options, with the same defaults.
 *
 * <pre>{@code
 * RankgradRanker ranker = new RankgradRanker().setGroupCol("qid").setLoss("ndcg-type3").setEpochs(30)
 *         .setShards(4).setValidationIndicatorCol("isValid");
 * PipelineModel fitted = new Pipeline().setStages(new PipelineStage[] {assembler, ranker}).fit(documents);
 * }</pre>
 *
 * <p>{@code fit} gathers the rows of each query in document order ({@code orderCol}, else input
 * order: see {@link DocumentRows}) and trains as {@code rankgrad-spark train} does: the model
 * depends on the shard count, never on executors or partitions. Rows whose
 * {@code validationIndicatorCol} is true are the validation queries (model selection, collected to
 * the driver); without it the training queries select the epoch, and they are collected to the
 * driver for that. A query must lie wholly on one side. {@code ensemble} K &gt; 1 trains K models
 * with seeds seed, seed + 1, ... and averages their scores, one model file as {@code rankgrad
 * train --ensemble} writes it. Per-document weights are not part of rankgrad's losses, and
 * Gaussian input noise is keyed by a query's index in one in-memory training set: setting
 * {@code weightCol} or {@code inputNoise > 0} is refused by {@code fit} with one message.
 */
public final class RankgradRanker extends Estimator<RankgradRankingModel> implements DefaultParamsWritable {
    private static final long serialVersionUID = 1L;

    private final String uid;

    /** Column of the feature vectors (ML {@code Vector}, dense or sparse; one size for all rows). */
    public final Param<String> featuresCol;
    /** Column of the relevance grades (a number >= 0). */
    public final Param<String> labelCol;
    /** Column of the query ids: rows with one value are one query. */
    public final Param<String> groupCol;
    /** Column of the scores the model appends. */
    public final Param<String> predictionCol;
    /** Optional column giving the documents' order within a query (unique within it); "" = input order. */
    public final Param<String> orderCol;
    /** Optional boolean column: true for the validation rows; "" = select on the training queries. */
    public final Param<String> validationIndicatorCol;
    /** Refused when set: rankgrad's losses take no weights. */
    public final Param<String> weightCol;
    /** The loss ({@code --loss}: ndcg-type3, lambdarank, listmle, ...). */
    public final Param<String> loss;
    /** The network ({@code --model}: linear, R4.L, CE5, attn, ...). */
    public final Param<String> architecture;
    /** {@code --normalization}: query-zscore, standardize or none. */
    public final Param<String> normalization;
    /** {@code --epochs}. */
    public final IntParam epochs;
    /** {@code --lr}. */
    public final DoubleParam learningRate;
    /** {@code --l2}. */
    public final DoubleParam l2;
    /** {@code --batch-queries}. */
    public final IntParam batchQueries;
    /** {@code --seed}. */
    public final LongParam seed;
    /** {@code --patience} (0 = never stop early). */
    public final IntParam patience;
    /** {@code --metric}: the validation metric for model selection. */
    public final Param<String> metric;
    /** {@code --optimizer}: adam, adamw, sgd. */
    public final Param<String> optimizer;
    /** {@code --ymax}: the grade scale's maximum, for ERR. */
    public final DoubleParam ymax;
    /** {@code --input-noise}: refused above 0 on Spark. */
    public final DoubleParam inputNoise;
    /** {@code --dropout}: rate after each hidden activation, in [0, 1). */
    public final DoubleParam dropout;
    /** {@code --ensemble}: models averaged. */
    public final IntParam ensemble;
    /** {@code --shards}: virtual shards per batch; the model depends on it, never on partitions. */
    public final IntParam shards;
    /** {@code --partitions}: partitions the shards are laid out in (0: the default parallelism). */
    public final IntParam partitions;
    /** The driver's rankgrad thread pool (0: leave it); executors size theirs to spark.task.cpus. */
    public final IntParam threads;

    /** A ranker with a random uid and {@code rankgrad train}'s defaults. */
    public RankgradRanker() {
        this(Identifiable.randomUID("rankgradRanker"));
    }

    /** A ranker with the given uid (Spark's copy and persistence call this). */
    public RankgradRanker(String uid) {
        this.uid = uid;
        // After the uid: a Param takes its parent's uid when it is made.
        featuresCol = new Param<>(this, "featuresCol", "features column (ML vector)");
        labelCol = new Param<>(this, "labelCol", "label column (grade >= 0)");
        groupCol = new Param<>(this, "groupCol", "query id column");
        predictionCol = new Param<>(this, "predictionCol", "prediction column (the score)");
        orderCol = new Param<>(this, "orderCol", "document order column (\"\": input order)");
        validationIndicatorCol = new Param<>(this, "validationIndicatorCol", "boolean column, true for validation rows (\"\": none)");
        weightCol = new Param<>(this, "weightCol", "not supported: must stay \"\"");
        loss = new Param<>(this, "loss", "the loss (rankgrad train --loss)");
        architecture = new Param<>(this, "architecture", "the network (rankgrad train --model)");
        normalization = new Param<>(this, "normalization", "query-zscore, standardize, none");
        epochs = new IntParam(this, "epochs", "epochs", ParamValidators.gtEq(1));
        learningRate = new DoubleParam(this, "learningRate", "learning rate", ParamValidators.gt(0));
        l2 = new DoubleParam(this, "l2", "L2 weight decay", ParamValidators.gtEq(0));
        batchQueries = new IntParam(this, "batchQueries", "queries per mini-batch", ParamValidators.gtEq(1));
        seed = new LongParam(this, "seed", "seed of the weights, batch order and tie-breaks");
        patience = new IntParam(this, "patience", "epochs without improvement before stopping", ParamValidators.gtEq(0));
        metric = new Param<>(this, "metric", "validation metric for model selection");
        optimizer = new Param<>(this, "optimizer", "adam, adamw, sgd");
        ymax = new DoubleParam(this, "ymax", "grade scale maximum (ERR)", ParamValidators.gt(0));
        inputNoise = new DoubleParam(this, "inputNoise", "not supported on Spark: must stay 0", ParamValidators.gtEq(0));
        dropout = new DoubleParam(this, "dropout", "dropout rate in [0, 1)", ParamValidators.inRange(0, 1, true, false));
        ensemble = new IntParam(this, "ensemble", "models trained with seeds seed, seed+1, ... and" + " averaged", ParamValidators.gtEq(1));
        shards = new IntParam(this, "shards", "virtual shards per batch", ParamValidators.gtEq(1));
        partitions = new IntParam(this, "partitions", "partitions of the shard layout (0: default" + " parallelism)", ParamValidators.gtEq(0));
        threads = new IntParam(this, "threads", "driver threads (0: unchanged)", ParamValidators.gtEq(0));
        setDefault(featuresCol, "features");
        setDefault(labelCol, "label");
        setDefault(groupCol, "qid");
        setDefault(predictionCol, "prediction");
        setDefault(orderCol, "");
        setDefault(validationIndicatorCol, "");
        setDefault(weightCol, "");
        setDefault(loss, "ndcg-type3");
        setDefault(architecture, "R4.L");
        setDefault(normalization, "query-zscore");
        setDefault(epochs, 100);
        setDefault(learningRate, 0.001);
        setDefault(l2, 0.001);
        setDefault(batchQueries, 64);
        setDefault(seed, 1L);
        setDefault(patience, 20);
        setDefault(metric, "ndcg@5");
        setDefault(optimizer, "adam");
        setDefault(ymax, 4.0);
        setDefault(inputNoise, 0.0);
        setDefault(dropout, 0.0);
        setDefault(ensemble, 1);
        setDefault(shards, 1);
        setDefault(partitions, 0);
        setDefault(threads, 0);
    }

    @Override
    public String uid() {
        return uid;
    }

    // Accessors as Spark ML finds parameters: public no-argument methods returning a Param.
    public Param<String> featuresCol() { return featuresCol; }
    public Param<String> labelCol() { return labelCol; }
    public Param<String> groupCol() { return groupCol; }
    public Param<String> predictionCol() { return predictionCol; }
    public Param<String> orderCol() { return orderCol; }
    public Param<String> validationIndicatorCol() { return validationIndicatorCol; }
    public Param<String> weightCol() { return weightCol; }
    public Param<String> loss() { return loss; }
    public Param<String> architecture() { return architecture; }
    public Param<String> normalization() { return normalization; }
    public IntParam epochs() { return epochs; }
    public DoubleParam learningRate() { return learningRate; }
    public DoubleParam l2() { return l2; }
    public IntParam batchQueries() { return batchQueries; }
    public LongParam seed() { return seed; }
    public IntParam patience() { return patience; }
    public Param<String> metric() { return metric; }
    public Param<String> optimizer() { return optimizer; }
    public DoubleParam ymax() { return ymax; }
    public DoubleParam inputNoise() { return inputNoise; }
    public DoubleParam dropout() { return dropout; }
    public IntParam ensemble() { return ensemble; }
    public IntParam shards() { return shards; }
    public IntParam partitions() { return partitions; }
    public IntParam threads() { return threads; }

    public RankgradRanker setFeaturesCol(String v) { set(featuresCol, v); return this; }
    public RankgradRanker setLabelCol(String v) { set(labelCol, v); return this; }
    public RankgradRanker setGroupCol(String v) { set(groupCol, v); return this; }
    public RankgradRanker setPredictionCol(String v) { set(predictionCol, v); return this; }
    public RankgradRanker setOrderCol(String v) { set(orderCol, v); return this; }
    public RankgradRanker setValidationIndicatorCol(String v) { set(validationIndicatorCol, v); return this; }
    public RankgradRanker setWeightCol(String v) { set(weightCol, v); return this; }
    public RankgradRanker setLoss(String v) { set(loss, v); return this; }
    public RankgradRanker setArchitecture(String v) { set(architecture, v); return this; }
    public RankgradRanker setNormalization(String v) { set(normalization, v); return this; }
    public RankgradRanker setEpochs(int v) { set(epochs, v); return this; }
    public RankgradRanker setLearningRate(double v) { set(learningRate, v); return this; }
    public RankgradRanker setL2(double v) { set(l2, v); return this; }
    public RankgradRanker setBatchQueries(int v) { set(batchQueries, v); return this; }
    public RankgradRanker setSeed(long v) { set(seed, v); return this; }
    public RankgradRanker setPatience(int v) { set(patience, v); return this; }
    public RankgradRanker setMetric(String v) { set(metric, v); return this; }
    public RankgradRanker setOptimizer(String v) { set(optimizer, v); return this; }
    public RankgradRanker setYmax(double v) { set(ymax, v); return this; }
    public RankgradRanker setInputNoise(double v) { set(inputNoise, v); return this; }
    public RankgradRanker setDropout(double v) { set(dropout, v); return this; }
    public RankgradRanker setEnsemble(int v) { set(ensemble, v); return this; }
    public RankgradRanker setShards(int v) { set(shards, v); return this; }
    public RankgradRanker setPartitions(int v) { set(partitions, v); return this; }
    public RankgradRanker setThreads(int v) { set(threads, v); return this; }

    public String getFeaturesCol() { return getOrDefault(featuresCol); }
    public String getLabelCol() { return getOrDefault(labelCol); }
    public String getGroupCol() { return getOrDefault(groupCol); }
    public String getPredictionCol() { return getOrDefault(predictionCol); }
    public String getOrderCol() { return getOrDefault(orderCol); }
    public String getValidationIndicatorCol() { return getOrDefault(validationIndicatorCol); }
    public String getWeightCol() { return getOrDefault(weightCol); }
    public String getLoss() { return getOrDefault(loss); }
    public String getArchitecture() { return getOrDefault(architecture); }
    public String getNormalization() { return getOrDefault(normalization); }
    public int getEpochs() { return (Integer) getOrDefault(epochs); }
    public double getLearningRate() { return (Double) getOrDefault(learningRate); }
    public double getL2() { return (Double) getOrDefault(l2); }
    public int getBatchQueries() { return (Integer) getOrDefault(batchQueries); }
    public long getSeed() { return (Long) getOrDefault(seed); }
    public int getPatience() { return (Integer) getOrDefault(patience); }
    public String getMetric() { return getOrDefault(metric); }
    public String getOptimizer() { return getOrDefault(optimizer); }
    public double getYmax() { return (Double) getOrDefault(ymax); }
    public double getInputNoise() { return (Double) getOrDefault(inputNoise); }
    public double getDropout() { return (Double) getOrDefault(dropout); }
    public int getEnsemble() { return (Integer) getOrDefault(ensemble); }
    public int getShards() { return (Integer) getOrDefault(shards); }
    public int getPartitions() { return (Integer) getOrDefault(partitions); }
    public int getThreads() { return (Integer) getOrDefault(threads); }

    @Override
    public RankgradRankingModel fit(Dataset<?> dataset) {
        transformSchema(dataset.schema());
        TrainingConfig config = config();
        SparkSession spark = dataset.sparkSession();
        String indicator = getValidationIndicatorCol();
        // Gathered into queries once, on the executors' disks: the validation set's collect, the
        // training set's count, its ordering and layout (and each member of an ensemble) would each
        // read the input and shuffle every document again. Disk only: the trainer caches the
        // normalized training set in memory, and this must not double it.
        Dataset<QueryRow> all = DocumentRows.queries(dataset, getGroupCol(), getOrderCol(), getFeaturesCol(),
                getLabelCol(), null, indicator.isEmpty() ? null : indicator).persist(StorageLevel.DISK_ONLY());
        // The driver's pool for this fit only: the application's pool size is its own.
        int poolBefore = Parallel.threads();
        try {
            Dataset<QueryRow> train = indicator.isEmpty() ? all : all.filter("file = '" + DocumentRows.TRAIN + "'");
            rankgrad.ltr.data.Dataset valid = SparkTrainer.collect(indicator.isEmpty() ? all
                    : all.filter("file = '" + DocumentRows.VALID + "'"), indicator.isEmpty() ? "training queries"
                    : "validation rows");
            int width = valid.features();
            if (getThreads() > 0) {
                Parallel.setThreads(getThreads());
            }
            Normalization norm = switch (getNormalization()) {
                case "standardize" -> GlobalStandardization.fit(train, width);
                case "none" -> new Normalization.None();
                default -> new Normalization.QueryZScore();
            };
            int partitionCount = getPartitions() > 0 ? getPartitions() : spark.sparkContext().defaultParallelism();
            SparkTrainer trainer = SparkTrainer.of(config, getShards(), partitionCount);
            List<RankingModel> members = new ArrayList<>();
            for (int k = 0; k < getEnsemble(); k++) {
                long s = getSeed() + k;
                RankingModel m = RankingModel.create(getArchitecture(), width, norm, s);
                if (getDropout() > 0) {
                    m = m.withDropout(getDropout());
                }
                (getEnsemble() == 1 ? trainer : SparkTrainer.of(config.withSeed(s), getShards(), partitionCount))
                        .fit(spark, m, getLoss(), train, valid, null, TrainingListener.none());
                members.add(m);
            }
            String text;
            if (members.size() == 1) {
                text = ModelFile.toJson(members.get(0));
            } else {
                Ensemble e = Ensemble.of(members);
                e.info().put("loss", getLoss());
                text = Json.write(ModelFile.toMap(e));
            }
            RankgradRankingModel model = new RankgradRankingModel(uid, text);
            model.setFeaturesCol(getFeaturesCol()).setGroupCol(getGroupCol()).setPredictionCol(getPredictionCol())
                    .setOrderCol(getOrderCol());
            return model.setParent(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            Parallel.setThreads(poolBefore);
            all.unpersist(false);
        }
    }

    /** The training settings these parameters give, each checked; a bad one is one message. */
    TrainingConfig config() {
        if (!getWeightCol().isEmpty()) {
            throw new IllegalArgumentException("weightCol '" + getWeightCol() + "': rankgrad's losses take no per-row"
                    + " weights; unset weightCol (or repeat a query's rows to weight it)");
        }
        if (getInputNoise() > 0) {
            throw new IllegalArgumentException("inputNoise " + getInputNoise() + ": Gaussian input noise is not supported"
                    + " on Spark (its draws are keyed by a query's index in one in-memory training set); leave it 0");
        }
        if (!Normalization.names().contains(getNormalization())) {
            throw new IllegalArgumentException("normalization: unknown '" + getNormalization() + "'; choose one of "
                    + String.join(", ", Normalization.names()));
        }
        Architectures.canonical(getArchitecture());
        Losses.parse(getLoss(), getSeed());
        return new TrainingConfig(getEpochs(), getLearningRate(), getL2(), getBatchQueries(), getSeed(), getPatience(),
                Metric.parse(getMetric()), OptimizerKind.parse(getOptimizer()),
                MetricConventions.defaults().withYmax(getYmax()), null);
    }

    @Override
    public StructType transformSchema(StructType schema) {
        DocumentRows.index(schema, getFeaturesCol(), "featuresCol");
        DocumentRows.index(schema, getLabelCol(), "labelCol");
        DocumentRows.index(schema, getGroupCol(), "groupCol");
        if (!getOrderCol().isEmpty()) {
            DocumentRows.index(schema, getOrderCol(), "orderCol");
        }
        if (!getValidationIndicatorCol().isEmpty()) {
            DocumentRows.index(schema, getValidationIndicatorCol(), "validationIndicatorCol");
        }
        config();
        return RankgradRankingModel.outputSchema(schema, getPredictionCol());
    }

    @Override
    public RankgradRanker copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    /** Reads a ranker saved with {@code write().save(path)} (its parameters). */
    public static MLReader<RankgradRanker> read() {
        return new DefaultParamsReader<>();
    }

    /** {@code read().load(path)}. */
    public static RankgradRanker load(String path) {
        return read().load(path);
    }
}
