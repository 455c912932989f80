package rankgrad.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;

/**
 * Time of one training step (R4.L, ndcg-type3, Adam) of {@link SparkTrainer} in {@code local[N]}
 * against {@link Trainer} in this JVM, on the same data, alternating A and B in one run; the step
 * time is the median gap between consecutive steps of an epoch (validation and the epoch's data
 * layout excluded). Not a test: run by {@code scripts/bench-spark-training}. Arguments: documents
 * per query, features, rounds, Spark master, then batch sizes (queries per step).
 */
public final class TrainingStepBenchmark {
    private static final int STEPS = 12;

    private TrainingStepBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int docs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int features = args.length > 1 ? Integer.parseInt(args[1]) : 136;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        String master = args.length > 3 ? args[3] : "local[2]";
        int[] batches = args.length > 4 ? Arrays.stream(args, 4, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {16, 64, 256};
        SparkSession spark = SparkSession.builder().master(master).appName("rankgrad bench-spark-training")
                .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate();
        int slots = spark.sparkContext().defaultParallelism();
        CubicData gen = CubicData.create(features, 7);
        Dataset valid = gen.sample("valid", 8, docs, 2);
        try {
            System.out.printf(Locale.ROOT, "training step, R4.L, ndcg-type3, %d documents x %d features per query;"
                    + " JDK %s, Spark %s, %s (%d task slots), %d processors; median of %d steps, %d rounds alternating%n",
                    docs, features, Runtime.version(), spark.version(), master, slots,
                    Runtime.getRuntime().availableProcessors(), STEPS, rounds);
            System.out.println();
            System.out.println("| queries per step | documents per step | Trainer (ms) | Spark, 1 shard (ms) | Spark, "
                    + slots + " shards (ms) |");
            System.out.println("|---:|---:|---:|---:|---:|");
            for (int b : batches) {
                Dataset train = gen.sample("train", b * STEPS, docs, 1);
                org.apache.spark.sql.Dataset<QueryRow> frame = frame(spark, train, slots);
                frame.cache().count();
                double[][] ms = new double[3][rounds];
                for (int r = 0; r < rounds; r++) {
                    ms[0][r] = local(train, valid, b, features);
                    ms[1][r] = onSpark(spark, frame, valid, b, features, 1, slots);
                    ms[2][r] = onSpark(spark, frame, valid, b, features, slots, slots);
                }
                System.out.printf(Locale.ROOT, "| %d | %d | %.1f | %.1f | %.1f |%n", b, b * docs, best(ms[0]),
                        best(ms[1]), best(ms[2]));
                frame.unpersist();
            }
        } finally {
            spark.stop();
        }
    }

    private static TrainingConfig config(int batch) {
        return TrainingConfig.defaults().withEpochs(1).withBatchQueries(batch).withPatience(0);
    }

    private static RankingModel model(int features) {
        return RankingModel.create("R4.L", features, new Normalization.QueryZScore(), 1);
    }

    private static double local(Dataset train, Dataset valid, int batch, int features) throws Exception {
        StepClock clock = new StepClock();
        Trainer.of(config(batch)).fit(model(features), Losses.parse("ndcg-type3", 1), train, valid, clock);
        return clock.medianMs();
    }

    private static double onSpark(SparkSession spark, org.apache.spark.sql.Dataset<QueryRow> frame, Dataset valid,
            int batch, int features, int shards, int partitions) throws Exception {
        StepClock clock = new StepClock();
        SparkTrainer.of(config(batch), shards, partitions).fit(spark, model(features), "ndcg-type3", frame, valid, null,
                clock);
        return clock.medianMs();
    }

    private static org.apache.spark.sql.Dataset<QueryRow> frame(SparkSession spark, Dataset data, int partitions) {
        List<QueryRow> rows = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            Query q = data.queries().get(i);
            rows.add(new QueryRow("train", i, q.qid(), q.labels(), q.x(), q.features(), null));
        }
        return spark.createDataset(rows, QueryFrames.encoder()).repartition(partitions);
    }

    private static double best(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    /** Median gap between consecutive {@code batchDone} calls of the epoch. */
    private static final class StepClock implements TrainingListener {
        private final List<Long> times = new ArrayList<>();

        @Override
        public void batchDone(int epoch, int batch, int batches, double loss) {
            times.add(System.nanoTime());
        }

        double medianMs() {
            double[] gaps = new double[times.size() - 1];
            for (int i = 1; i < times.size(); i++) {
                gaps[i - 1] = (times.get(i) - times.get(i - 1)) / 1e6;
            }
            Arrays.sort(gaps);
            return gaps[gaps.length / 2];
        }
    }
}
