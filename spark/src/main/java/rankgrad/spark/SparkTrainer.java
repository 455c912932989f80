package rankgrad.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.ltr.train.TrainingResult;
import rankgrad.ltr.train.shards.VirtualShards;

/**
 * Data-parallel training on Spark: {@link Trainer} with its step gradients computed over a fixed
 * number of virtual shards on the executors. Everything but the gradient is {@link Trainer}'s:
 * the {@link TrainingConfig} (optimizer on the driver, epochs, batch order, patience), the losses
 * of {@link Losses}, model selection on validation, checkpoints and resume.
 *
 * <pre>{@code
 * Dataset<QueryRow> train = QueryFrames.readLetor(spark, LetorInput.of("hdfs:///ltr/train.txt"));
 * rankgrad.ltr.data.Dataset valid = SparkTrainer.collect(QueryFrames.readLetor(spark, LetorInput.of("vali.txt")), "vali");
 * RankingModel model = RankingModel.create("R4.L", 136, new Normalization.QueryZScore(), 1L);
 * TrainingResult r = SparkTrainer.of(TrainingConfig.defaults(), 8, 16)
 *         .fit(spark, model, "ndcg-type3", train, valid, null, TrainingListener.none());
 * }</pre>
 *
 * <p>What the shard count S means: each batch of B queries is split into S shards of about B/S
 * queries by batch position ({@link VirtualShards}); their gradients, weighted by their share of
 * the batch, are added in shard order. The model depends on S, never on the number of executors or
 * partitions: with S = 1 it equals {@link Trainer#fit}'s bit for bit, and with any S it equals
 * {@code Trainer.fit} over {@link rankgrad.ltr.train.shards.LocalShards} with S shards bit for bit. Tie
 * breaks are keyed by the query's position in its whole batch, so splitting does not change them.
 * S matters beyond float rounding only for batch normalization, whose statistics are per shard
 * (see {@link rankgrad.ltr.train.shards.ShardSum}). Pick S = the number of executor cores you want busy;
 * the partition count only places shards on executors.
 *
 * <p>Validation and test sets are held by the driver (as for {@code Trainer}): keep them to a size
 * one JVM evaluates in seconds. The training set stays on the executors.
 */
public final class SparkTrainer {
    private final TrainingConfig config;
    private final VirtualShards shards;
    private final int partitions;

    private SparkTrainer(TrainingConfig config, VirtualShards shards, int partitions) {
        this.config = config;
        this.shards = shards;
        this.partitions = partitions;
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
    }

    /** A trainer with {@code shards} virtual shards per batch laid out in {@code partitions} partitions. */
    public static SparkTrainer of(TrainingConfig config, int shards, int partitions) {
        return new SparkTrainer(config, new VirtualShards(shards), partitions);
    }

    /**
     * Trains {@code model} with the loss named {@code loss} (seeded with the configuration's seed,
     * as the command line does) on the whole-query frame {@code train}, selecting on {@code valid}
     * and reporting on {@code test} (null for none). The model then holds the best epoch's weights.
     */
    public TrainingResult fit(SparkSession spark, RankingModel model, String loss, Dataset<QueryRow> train,
            rankgrad.ltr.data.Dataset valid, rankgrad.ltr.data.Dataset test, TrainingListener listener)
            throws IOException {
        RankingLoss l = Losses.parse(loss, config.seed());
        long trainQueries = train.count();
        long batches = (trainQueries + config.batchQueries() - 1) / config.batchQueries();
        try (SparkShards gradients = SparkShards.create(JavaSparkContext.fromSparkContext(spark.sparkContext()), train,
                model, loss, config.seed(), config.epochs() * batches, shards, partitions)) {
            return Trainer.of(config).fit(model, l, gradients, valid, test, listener);
        }
    }

    /** The queries of a whole-query frame in input order, as one {@code Dataset} on the driver. */
    public static rankgrad.ltr.data.Dataset collect(Dataset<QueryRow> frame, String name) {
        List<Query> queries = new ArrayList<>();
        int width = -1;
        for (QueryRow r : frame.orderBy("order").collectAsList()) {
            queries.add(new Query(r.getQid(), r.getWidth(), r.getFeatures(), r.getLabels()));
            width = r.getWidth();
        }
        if (width < 0) {
            throw new IllegalArgumentException(name + ": no query");
        }
        return new rankgrad.ltr.data.Dataset(name, width, queries);
    }
}
